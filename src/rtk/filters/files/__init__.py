"""The files, search and text family: ls, tree, find/fd, grep/rg, wc, diff, env, curl/wget."""
