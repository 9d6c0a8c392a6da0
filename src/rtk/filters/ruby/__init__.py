"""The Ruby family: rspec, rake/rails test (Minitest); rubocop is a TOML filter (dsl/builtin/linters.toml)."""
