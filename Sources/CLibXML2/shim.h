#ifndef REMCONV_CLIBXML2_SHIM_H
#define REMCONV_CLIBXML2_SHIM_H
// Debian's libxml2 is built with ICU, so <libxml/encoding.h> includes the system's
// <unicode/ucnv.h>, whose types clash with the ICU that Foundation carries ("'UErrorCode' has
// different definitions in different modules") — on clean builds only. remconv never touches
// libxml2's encoding handlers, so the ICU part of the headers is switched off before anything
// includes it. Never hold an xmlCharEncodingHandler by value: its ICU fields are hidden here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/parserInternals.h>

// libxml2 prints errors that have no parser context (memory, I/O) through its generic error
// function, to stderr by default. That function is variadic, which Swift cannot implement.
static void remconv_xml_ignore_generic_error(void *context, const char *message, ...) {
  (void)context;
  (void)message;
}

// Silences libxml2's generic error output on the calling thread (libxml2 keeps the handler per
// thread). remconv reports every parser error itself, with file, line and column.
static inline void remconv_xml_silence_generic_errors(void) {
  xmlSetGenericErrorFunc(NULL, remconv_xml_ignore_generic_error);
}
#endif
