/*
 * Keeps libdrumlin.so loadable on glibc 2.34 (RHEL 9 and its rebuilds, Amazon Linux 2023).
 *
 * The statically linked Swift runtime (its Glibc module) calls hypotf, which glibc 2.35 gave a new
 * symbol version (hypotf@GLIBC_2.35, a more precise implementation); linked on a newer system, it
 * is the only symbol that needs glibc 2.35. This file defines hypotf inside the library (hidden,
 * so it is not exported and the runtime's calls bind to it) as the version every glibc since 2.2.5
 * has. Nothing in Drumlin computes with hypotf.
 */
#include "DrumlinLinkCompat.h"

#if defined(__linux__) && defined(__x86_64__) && defined(__GLIBC__)
float drumlin_hypotf_glibc_2_2_5(float x, float y);
__asm__(".symver drumlin_hypotf_glibc_2_2_5, hypotf@GLIBC_2.2.5");

__attribute__((visibility("hidden"))) float hypotf(float x, float y) {
    return drumlin_hypotf_glibc_2_2_5(x, y);
}
#endif
