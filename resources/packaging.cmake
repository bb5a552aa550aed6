# The Debian package: `cpack -G DEB` in the build folder writes topocast_<version>_<arch>.deb with
# everything `cmake --install` installs (stripped), its Depends worked out by dpkg-shlibdeps from
# the programs' shared libraries (so they are Debian 12 package names), and the runtime pieces no
# library link names: Mesa's drivers, mpirun and the handouts' font (Qt's X11 platform plugin and
# Qt3D's OpenGL renderer come with libqt6gui6 and libqt63drender6, which the links name).
set(CPACK_PACKAGE_NAME topocast)
set(CPACK_PACKAGE_VENDOR "topocast")
set(CPACK_PACKAGE_CONTACT "topocast developers <topocast@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch collective communication travel through meshes, tori and hypercubes")
set(CPACK_PACKAGE_DESCRIPTION
    "topocast computes and animates collective-communication schedules (broadcast, scatter, all-gather,\n"
    "all-to-all, reductions) on 2-D, 3-D and d-dimensional meshes, tori and hypercubes: the algorithms\n"
    "of Cang and Wu, Tsay and Wang, Johnsson and Ho, Drozdowski and Glazek, and the usual baselines.\n"
    "It draws the network in 3-D, plays the messages step by step and exports handouts and video.\n"
    "Includes topocast-cli (headless) and topocast-mpi (replays a schedule on MPI ranks).")
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
include(CPack)
