#!/usr/bin/python3
"""Runs a shell command and prints `ended` when it ends within TIMEOUT
seconds, or `hung` (after killing it) when it does not.

Usage: within_timeout.py TIMEOUT SHELL-COMMAND
"""
import os
import signal
import subprocess
import sys

timeout = float(sys.argv[1])
process = subprocess.Popen(["sh", "-c", sys.argv[2]], start_new_session=True)
try:
    process.wait(timeout=timeout)
    print("ended")
except subprocess.TimeoutExpired:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    print("hung")
