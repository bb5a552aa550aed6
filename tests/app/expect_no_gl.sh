#!/bin/sh
# Runs the command given (the app tests' GL run) and passes only when it FAILS saying that no
# OpenGL context could be made: the guard that keeps the GL tests from passing by running none.
out=$("$@" 2>&1)
rc=$?
echo "$out"
if [ "$rc" -eq 0 ]; then
  echo "expect_no_gl: the GL run passed although OpenGL could not start (exit 0)"
  exit 1
fi
echo "$out" | grep -q 'no OpenGL context could be made' || {
  echo "expect_no_gl: the GL run failed (exit $rc) but not for want of an OpenGL context"
  exit 1
}
echo "expect_no_gl: the GL run failed as it must (exit $rc)"
