#include "CConsole.h"

#include <unistd.h>

FILE *hvt_console_stream(int descriptor) {
  switch (descriptor) {
  case STDOUT_FILENO: return stdout;
  case STDERR_FILENO: return stderr;
  default: return NULL;
  }
}
