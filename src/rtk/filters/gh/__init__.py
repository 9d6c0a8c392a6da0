"""The GitHub CLI family (``gh``): which forms are filtered and which run raw."""
