// Drumlin — SPDX-License-Identifier: Apache-2.0 (see LICENSE)
// libwebsockets (Debian's libwebsockets-dev 4.1.6), the sync client's WebSocket/TLS transport. Only
// Sources/DrumlinWebSocket includes it; Swift sees that target's small blocking API instead.
#include <libwebsockets.h>
