# The Debian package: `cpack -G DEB` in the build folder writes topocast_<version>_<arch>.deb with
# everything `cmake --install` installs (stripped), its Depends worked out by dpkg-shlibdeps from
# the programs' shared libraries (so they are Debian 12 package names), and the runtime pieces no
# library link names: Mesa's drivers, mpirun and the handouts' font (Qt's X11 platform plugin and
# Qt3D's OpenGL renderer come with libqt6gui6 and libqt63drender6, which the links name).
set(CPACK_PACKAGE_NAME topocast)
set(CPACK_PACKAGE_VENDOR "topocast")
set(CPACK_PACKAGE_CONTACT "${TOPOCAST_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch collective communication travel through meshes, tori and hypercubes")
# Lines of at most 80 characters (Debian's extended description).
set(CPACK_PACKAGE_DESCRIPTION
    "topocast computes and animates collective-communication schedules (broadcast,\n"
    "scatter, all-gather, all-to-all, reductions) on 2-D, 3-D and d-dimensional\n"
    "meshes, tori and hypercubes: the algorithms of Cang and Wu, Tsay and Wang,\n"
    "Johnsson and Ho, Drozdowski and Glazek, and the usual baselines. It draws the\n"
    "network in 3-D, plays the messages step by step and exports handouts and video.\n"
    "Includes topocast-cli (headless) and topocast-mpi (replays a schedule on MPI\n"
    "ranks).")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libgl1-mesa-dri, openmpi-bin, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "xvfb, xauth")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
# Debian's documentation files: the copyright (topocast's MIT licence and the three.js it carries)
# and the changelog, compressed as Debian keeps changelogs.
include(GNUInstallDirs)
install(FILES ${PROJECT_SOURCE_DIR}/resources/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
configure_file(${PROJECT_SOURCE_DIR}/resources/debian/changelog.in ${PROJECT_BINARY_DIR}/debian/changelog @ONLY)
find_program(TOPOCAST_GZIP gzip REQUIRED)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/debian/changelog.gz
  COMMAND ${TOPOCAST_GZIP} -n -9 -c ${PROJECT_BINARY_DIR}/debian/changelog > ${PROJECT_BINARY_DIR}/debian/changelog.gz
  DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog
  COMMENT "Compressing the Debian changelog")
add_custom_target(topocast_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.gz)
install(FILES ${PROJECT_BINARY_DIR}/debian/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
include(CPack)
