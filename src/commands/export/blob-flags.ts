// The options of a blob export, shared by `export blob` and `server --blob-export`.
export const BLOB_FLAGS = [
  { flags: '--format <format>', help: 'parquet (default, as Langfuse), jsonl, csv or json', choices: ['parquet', 'jsonl', 'csv', 'json'] },
  { flags: '--no-gzip', help: 'write the text formats uncompressed (default: gzip, .gz keys)' },
  { flags: '--interval <interval>', help: 'the window of each file: 20m, hourly (default), daily or weekly', choices: ['20m', 'hourly', 'daily', 'weekly'] },
  { flags: '--from <time>', help: 'where a first export starts (default: the project\'s first observation)' },
  { flags: '--fields <list>', help: 'field groups (core, basic, time, io, metadata, model, usage, prompt, metrics, trace_context) or fields, as in observations export (default: every group)', repeatable: true },
  { flags: '--tables <list>', help: 'the tables to write: observations_v2 (default) and scores (the v3 scores API), comma-separated' },
  { flags: '--endpoint <url>', help: 'an S3-compatible store\'s endpoint (R2, MinIO, GCS with HMAC keys; default: AWS), or the Azure account\'s URL' },
  { flags: '--region <region>', help: 'the bucket\'s region (default: the AWS SDK\'s, or auto with --endpoint)' },
  { flags: '--force-path-style', help: 'address the bucket in the path (https://host/bucket/key), as MinIO needs' },
] as const;
