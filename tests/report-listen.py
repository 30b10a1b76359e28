#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# usage: tests/report-listen.py PORTFILE LOG
#
# A listener on 127.0.0.1 for tests/report.sh's hostile pages: it binds a
# free port, writes the port to PORTFILE, and appends one line per request
# ("GET /path") to LOG, answering 404.  A page that is text only makes no
# request; a live payload in one points here.
import http.server
import os
import sys


class Log(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        with open(sys.argv[2], "a") as f:
            f.write("%s %s\n" % (self.command, self.path))
        self.send_error(404)

    do_POST = do_HEAD = do_OPTIONS = do_GET


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Log)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d\n" % srv.server_address[1])
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
srv.serve_forever()
