"""AWS CLI filters: API responses (JSON compacted, tables unboxed) and the s3 transfer commands."""
