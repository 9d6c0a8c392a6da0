"""The PHP family: phpunit, composer and php -l (php itself otherwise runs unfiltered: a script's output is its own)."""
