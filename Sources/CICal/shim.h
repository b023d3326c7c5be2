#ifndef REMCONV_CICAL_SHIM_H
#define REMCONV_CICAL_SHIM_H
#include <libical/ical.h>

// icalerrno is a macro over a thread-local accessor; Swift cannot import it.
static inline icalerrorenum cical_errno(void) {
  return icalerrno;
}
#endif
