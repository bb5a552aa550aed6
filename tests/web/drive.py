"""Drives headless Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: no port,
no third-party module): opens a page, waits until the player says it is ready, runs JavaScript
expressions in it in order (as a student's clicks and keys would act) and prints their values as
JSON, one per line. Console errors and exceptions are printed as "CONSOLE ..." lines.

    drive.py CHROMIUM URL PROFILE_DIR [--screenshot PNG] EXPR...

With --screenshot, the page as it stands after the expressions is saved as PNG.
"""
import base64
import json
import os
import subprocess
import sys
import time


def main():
    browser, url, profile = sys.argv[1:4]
    exprs = sys.argv[4:]
    shot = None
    if exprs[:1] == ["--screenshot"]:
        shot, exprs = exprs[1], exprs[2:]
    to_chrome_r, to_chrome_w = os.pipe()
    from_chrome_r, from_chrome_w = os.pipe()

    def child_fds():  # chromium reads the protocol on fd 3 and writes it on fd 4
        os.dup2(to_chrome_r, 3)
        os.dup2(from_chrome_w, 4)
        os.set_inheritable(3, True)
        os.set_inheritable(4, True)

    proc = subprocess.Popen(
        [browser, "--headless", "--no-sandbox", "--enable-unsafe-swiftshader", "--remote-debugging-pipe",
         "--user-data-dir=" + profile, "--no-first-run", "--disable-background-networking", "--window-size=1200,900",
         "about:blank"],
        close_fds=False, preexec_fn=child_fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(to_chrome_r)
    os.close(from_chrome_w)
    out = os.fdopen(to_chrome_w, "wb", buffering=0)
    inp = os.fdopen(from_chrome_r, "rb", buffering=0)
    buf = b""
    ids = [0]
    events = []

    def send(method, params=None, session=None):
        ids[0] += 1
        msg = {"id": ids[0], "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        out.write(json.dumps(msg).encode() + b"\0")
        while True:
            reply = receive()
            if reply.get("id") == ids[0]:
                if "error" in reply:
                    raise RuntimeError(method + ": " + json.dumps(reply["error"]))
                return reply.get("result", {})
            events.append(reply)

    def receive():
        nonlocal buf
        while b"\0" not in buf:
            chunk = inp.read(65536)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            buf += chunk
        msg, buf = buf.split(b"\0", 1)
        return json.loads(msg)

    try:
        target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        send("Runtime.enable", session=session)
        send("Page.enable", session=session)
        send("Page.navigate", {"url": url}, session=session)
        deadline = time.time() + 60
        while True:
            ready = send("Runtime.evaluate", {"expression": "document.body && document.body.getAttribute('data-ready')",
                                              "returnByValue": True}, session=session)
            if ready.get("result", {}).get("value") == "true":
                break
            if time.time() > deadline:
                raise RuntimeError("the page did not become ready")
            time.sleep(0.2)
        for expr in exprs:
            r = send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=session)
            if "exceptionDetails" in r:
                print("CONSOLE exception in " + expr + ": " + json.dumps(r["exceptionDetails"].get("exception", {}).get("description")))
            else:
                print(json.dumps(r.get("result", {}).get("value")))
        if shot:
            send("Runtime.evaluate", {"expression": "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
                                      "awaitPromise": True}, session=session)
            png = send("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
            open(shot, "wb").write(base64.b64decode(png))
        for e in events:
            if e.get("method") == "Runtime.exceptionThrown":
                print("CONSOLE exception: " + json.dumps(e["params"]["exceptionDetails"].get("text")))
            if e.get("method") == "Runtime.consoleAPICalled" and e["params"].get("type") in ("error", "assert"):
                print("CONSOLE error: " + json.dumps([a.get("value") for a in e["params"].get("args", [])]))
    finally:
        try:
            send("Browser.close")
        except Exception:
            pass
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
