"""The Ruby family: rspec, rake/rails test (Minitest), rubocop (default formatter, also -a/-A), bundle install/update."""
