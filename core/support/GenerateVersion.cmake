# Writes Version.h with the current git commit; configure_file only touches
# the file when the text changes, so an unchanged commit rebuilds nothing.
execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE DISPATCHLAB_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET)
execute_process(COMMAND git status --porcelain --untracked-files=no
  WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE DIRTY OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT DISPATCHLAB_GIT_COMMIT)
  set(DISPATCHLAB_GIT_COMMIT unknown)
elseif(DIRTY)
  set(DISPATCHLAB_GIT_COMMIT "${DISPATCHLAB_GIT_COMMIT}-dirty")
endif()
configure_file(${SOURCE_DIR}/core/support/Version.h.in ${OUTPUT} @ONLY)
