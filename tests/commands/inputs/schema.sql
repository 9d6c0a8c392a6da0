-- schema
CREATE TABLE users (
  id INTEGER PRIMARY KEY, -- key
  name TEXT NOT NULL DEFAULT '-- not a comment'
);
