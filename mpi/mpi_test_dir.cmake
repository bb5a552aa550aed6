# What every topocast-mpi test script (cmake -P) starts with: a fresh working folder ${dir} named
# after the test (NAME under WORK), and the mpiexec FLAGS as a list ${flags} ("|"-separated).
string(MAKE_C_IDENTIFIER "${NAME}" id)
set(dir "${WORK}/${id}")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")
string(REPLACE "|" ";" flags "${FLAGS}")
