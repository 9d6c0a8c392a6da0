"""psql filters: query results without borders, errors with their LINE pointer, notices."""
