"""Nothing may write to the terminal behind the window's back.  A raw
log line ("belfort.session: [seat 0] disconnect: …") used to land over every LAN screen
on a disconnect, a reconnect or the host leaving."""

import logging
import os
import subprocess
import sys
import threading

from client import termguard


def _restore_logging(saved):
    root = logging.getLogger()
    for h in list(root.handlers):
        if h not in saved[0]:
            root.removeHandler(h)
            h.close()
    for h in saved[0]:
        if h not in root.handlers:
            root.addHandler(h)
    root.setLevel(saved[1])


def test_session_records_threads_and_children_go_to_the_file_not_the_terminal(tmp_path,
                                                                               capfd):
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    # what the networked commands had: records printed on standard error
    root.addHandler(logging.StreamHandler(sys.stderr))
    path = termguard.log_path(tmp_path)
    try:
        termguard.log_to_file(path)
        capfd.readouterr()
        with termguard.stderr_into(path):
            logging.getLogger("belfort.session").warning("[seat 0] disconnect: Bo disconnected")
            logging.getLogger("belfort.session").warning("[seat 0] reconnect: Bo is back")

            def complain():       # e.g. a library's warning from the network thread
                os.write(2, b"a thread complained\n")
            t = threading.Thread(target=complain)
            t.start()
            t.join()
            subprocess.run([sys.executable, "-c",
                            "import sys; sys.stderr.write('child complaint\\n')"], check=True)
        out, err = capfd.readouterr()
    finally:
        _restore_logging(saved)
    assert out == "" and err == ""
    text = path.read_text()
    assert "belfort.session: [seat 0] disconnect: Bo disconnected" in text
    assert "reconnect: Bo is back" in text
    assert "a thread complained" in text
    assert "child complaint" in text


def test_standard_error_is_the_terminal_again_after_the_window(tmp_path, capfd):
    with termguard.stderr_into(tmp_path / "x.log"):
        os.write(2, b"inside\n")
    os.write(2, b"after\n")
    _out, err = capfd.readouterr()
    assert err == "after\n"
    assert (tmp_path / "x.log").read_text() == "inside\n"
