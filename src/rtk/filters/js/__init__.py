"""The JavaScript/TypeScript family: package managers, test runners, linters, builds, tsc."""
