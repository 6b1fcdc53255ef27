#ifndef TESSERA_XMP_QUIET_H
#define TESSERA_XMP_QUIET_H

/* Exempi writes the message of every XMP error it catches to std::cerr (its set_error), so each damaged
 * sidecar, and each photo whose own XMP has a fault (a duplicated property is common in camera files),
 * would print a line on the terminal the viewer was started from. Tessera reports a sidecar it cannot
 * read in its own words, so the C++ error stream is let go: after this, what is written to std::cerr
 * goes nowhere. Tessera's own messages go to the C stderr, which this leaves alone. */

#ifdef __cplusplus
extern "C" {
#endif

void tessera_xmp_quiet_error_stream(void);

#ifdef __cplusplus
}
#endif

#endif
