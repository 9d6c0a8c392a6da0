"""The PHP family: phpunit (php -l prints one or two lines and runs unfiltered)."""
