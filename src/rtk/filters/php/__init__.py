"""The PHP family: phpunit and composer (php -l prints one or two lines and runs unfiltered)."""
