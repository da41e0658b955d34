"""A peer process whose seat is played through the client's window path (tests only):
``python -m tests.session.window_peer host|join … --level L --json``.

The lobby is the real one (client.netcli.start) and the end the real one
(client.main.play_networked: NetDriver, then serve_the_end and driver.leave); only the
full-screen window is replaced by a stand-in that does what BelfortApp.run_async does —
the driver's work runs on the event loop while the seat's bot decides for the person —
and closes as soon as the end of the game (its audit) is shown, as a person closing the
window at once would.  Its last line is an '@ {"event": "result", …}' like the peer's."""

from __future__ import annotations

import asyncio
import json
import sys

from client import main as client_main
from client import netcli as cli


def window_closed_at_the_end(driver, plain=False, colour=None, log_path=None) -> int:
    async def run():
        task = asyncio.ensure_future(driver.run())
        changed = asyncio.Event()
        driver.subscribe(lambda _events: changed.set())
        task.add_done_callback(lambda _t: changed.set())
        try:
            while not task.done() and driver.audit() is None:
                if driver.legal():
                    with driver._lock:
                        cmd = driver.node.bot.choose(driver.peer.game, driver.seat)
                    driver.submit(cmd)
                    continue
                changed.clear()
                try:       # a change wakes us; the time-out only re-checks
                    await asyncio.wait_for(changed.wait(), 1.0)
                except TimeoutError:
                    pass
        finally:           # as BelfortApp.run_async once the window is closed
            driver.close()
            if not task.done():
                task.cancel()
            try:
                await task
            except BaseException:
                pass
    asyncio.run(run())
    return 0


def main(argv) -> int:
    args = cli.parser().parse_args(argv)
    node = cli.start(args)
    if isinstance(node, int):
        return node
    client_main.open_window = window_closed_at_the_end
    code = client_main.play_networked(node, plain=True)
    print("@ " + json.dumps({"event": "result", **node.summary()}, default=str), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
