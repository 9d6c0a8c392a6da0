#!/bin/sh
exec ./tests/ring_test resize
