"""The jq family: jq output is data; only huge pretty-printed JSON goes through the JSON view."""
