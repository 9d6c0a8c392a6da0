#!/bin/sh
# deploy script
set -eu
echo "deploying #1"   # comment after code
n=${#1}  # length, not a comment start
