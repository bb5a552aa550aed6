# One topocast-mpi source-map test (cmake -P): for every metric, `topocast-cli source-map --json`
# and `topocast-mpi source-map --json --out FILE` under mpiexec on NP ranks must write the same bytes.
# Variables: CLI MPI_EXE MPIEXEC NPFLAG FLAGS NP TOPOLOGY ALGORITHM METRICS EXTRA WORK NAME
# (FLAGS, METRICS and EXTRA use "|" as the list separator).
include("${CMAKE_CURRENT_LIST_DIR}/mpi_test_dir.cmake")
string(REPLACE "|" ";" metrics "${METRICS}")
string(REPLACE "|" ";" extra "${EXTRA}")

foreach(metric ${metrics})
  set(scenario --topology ${TOPOLOGY} --algorithm ${ALGORITHM} ${extra} --metric ${metric} --json)
  execute_process(COMMAND "${CLI}" source-map ${scenario} --threads 1
                  RESULT_VARIABLE rc OUTPUT_FILE "${dir}/${metric}.cli.json" ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "topocast-cli source-map --metric ${metric} failed (${rc}):\n${err}")
  endif()
  set(cmd "${MPIEXEC}" ${flags} ${NPFLAG} ${NP} "${MPI_EXE}" source-map ${scenario} --threads 1
          --out "${dir}/${metric}.mpi.json")
  string(REPLACE ";" " " shown "${cmd}")
  message(STATUS "${shown}")
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 100)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "topocast-mpi source-map --metric ${metric} on ${NP} ranks failed (${rc}):\n${out}${err}")
  endif()
  file(READ "${dir}/${metric}.cli.json" expected)
  file(READ "${dir}/${metric}.mpi.json" got)
  if(NOT got STREQUAL expected)
    message(FATAL_ERROR "--metric ${metric}: topocast-mpi on ${NP} ranks wrote\n${got}\ntopocast-cli wrote\n${expected}")
  endif()
  string(LENGTH "${got}" bytes)
  if(bytes LESS 100 OR NOT got MATCHES "\"values\":\\[[^]]*[0-9]")
    message(FATAL_ERROR "--metric ${metric}: the document holds no values:\n${got}")
  endif()
  message(STATUS "--metric ${metric}: ${bytes} bytes, identical")
endforeach()
