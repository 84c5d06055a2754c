/* Link-time shims for libdrumlin.so; see hypotf.c. Nothing here is for callers. */
#ifndef DRUMLIN_LINK_COMPAT_H
#define DRUMLIN_LINK_COMPAT_H
#if defined(__linux__)
#include <features.h> /* defines __GLIBC__ on glibc systems */
#endif
#endif
