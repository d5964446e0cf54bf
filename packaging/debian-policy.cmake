# CPack pre-build script (CPACK_PRE_BUILD_SCRIPTS): runs on the staged files before the package
# is made. Debian policy asks two things of a .deb that a plain `cmake --install` (DESTDIR,
# tarball) does not need, so they are done here, for the DEB generator only:
#   - man pages are gzipped with maximum compression and no timestamp (policy 12.1);
#   - this is a native package (no Debian revision), so its changelog is changelog.gz, not
#     changelog.Debian.gz (policy 12.7).
if(CPACK_GENERATOR STREQUAL "DEB")
    set(staged_prefix "${CPACK_TEMPORARY_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}")

    file(GLOB man_pages "${staged_prefix}/${CPACK_BATCHSCOPE_MANDIR}/man[1-9]/*.[1-9]")
    if(NOT man_pages)
        message(FATAL_ERROR "debian-policy.cmake: no man pages staged under "
                            "${staged_prefix}/${CPACK_BATCHSCOPE_MANDIR}")
    endif()
    foreach(page IN LISTS man_pages)
        execute_process(COMMAND "${CPACK_BATCHSCOPE_GZIP}" -9n "${page}"
                        COMMAND_ERROR_IS_FATAL ANY)
    endforeach()

    set(doc_dir "${staged_prefix}/${CPACK_BATCHSCOPE_DOCDIR}")
    if(NOT EXISTS "${doc_dir}/changelog.Debian.gz")
        message(FATAL_ERROR "debian-policy.cmake: ${doc_dir}/changelog.Debian.gz was not staged")
    endif()
    file(RENAME "${doc_dir}/changelog.Debian.gz" "${doc_dir}/changelog.gz")
endif()
