// A blob export to S3 or an S3-compatible store (R2, MinIO, GCS through HMAC keys) with the AWS
// SDK v3. Loaded only by `export blob` with an s3:// destination, so no other command pays for
// the SDK. Credentials come from the SDK's usual chain (environment, shared files, roles). Files
// go up as multipart uploads fed from the stream as rows arrive, a few parts in memory at a time;
// S3 shows an object only once its upload completes, so a failed or killed upload leaves the key
// as it was.
import { GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { CliError, ConfigError, ExitCode } from '../../errors.js';
import { type BlobTarget, destPrefix, uploadCounted } from './target.js';

/** The smallest part S3 takes (except the last): memory holds PART_BYTES × QUEUE_SIZE at most. */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

export interface S3Location {
  bucket: string;
  /** '' or ending with '/'. */
  prefix: string;
}

/** `s3://BUCKET/PREFIX`: the bucket and the key prefix (given a final `/` when it has none). */
export function parseS3Url(text: string): S3Location | { error: string } {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(text);
  if (!match) return { error: 'must be s3://BUCKET/ or s3://BUCKET/PREFIX/' };
  const bucket = match[1]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return { error: `"${bucket}" is not a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)` };
  const prefix = destPrefix(match[2]);
  return typeof prefix === 'string' ? { bucket, prefix } : prefix;
}

export interface S3Options {
  endpoint?: string | undefined;
  region?: string | undefined;
  forcePathStyle: boolean;
  /** Keys to use instead of the SDK's chain (an integration stores its own). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

interface SdkError {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

/** The SDK's errors as llmobs's: the exit code says whose fault it is; no secret is in them. */
export function storageError(error: unknown, what: string): CliError {
  if (error instanceof CliError) return error;
  const e = (error ?? {}) as SdkError;
  const status = e.$metadata?.httpStatusCode;
  const name = e.name ?? 'Error';
  // An answer without a body (HEAD) has no error name: the status says it.
  const bare = name === 'Unknown' || e.message === 'UnknownError';
  const text = bare && status ? `${what}: the store answered ${status}` : `${what}: ${name}${e.message && e.message !== name ? `: ${e.message}` : ''}`;
  if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden', 'InvalidToken', 'ExpiredToken'].includes(name) || status === 401 || status === 403) {
    return new CliError(text, ExitCode.auth, 'storage_auth', { hint: 'The store refused the credentials. The AWS SDK takes them from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE and ~/.aws/credentials; the key needs to list, read and write the bucket.' });
  }
  if (name === 'NoSuchBucket' || (name === 'NotFound' && status === 404)) {
    return new ConfigError(`${what}: the bucket does not exist (${name})`, { hint: 'Check the bucket name (and --endpoint, --region), or create the bucket first.' });
  }
  if (name === 'CredentialsProviderError' || /credential/i.test(name)) {
    return new ConfigError(text, { hint: 'Give credentials as the AWS SDK reads them: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with ~/.aws/credentials.' });
  }
  if (/region/i.test(e.message ?? '') && !status) {
    return new ConfigError(text, { hint: 'Give --region (or AWS_REGION); S3-compatible stores often take auto.' });
  }
  if (['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN'].includes(e.code ?? '') || name === 'TimeoutError') {
    return new CliError(text, ExitCode.network, 'network', { hint: 'Check --endpoint and the network.' });
  }
  return new CliError(text, ExitCode.api, 'storage_error');
}

export function openS3Target(location: S3Location, shown: string, options: S3Options): BlobTarget {
  const config: S3ClientConfig = { forcePathStyle: options.forcePathStyle, maxAttempts: 3 };
  if (options.endpoint) config.endpoint = options.endpoint;
  if (options.credentials) config.credentials = options.credentials;
  // Langfuse's default region for a store that names none; AWS itself needs the real one.
  const region = options.region ?? (options.endpoint ? 'auto' : undefined);
  if (region) config.region = region;
  // The SDK warns on Node 20 that its releases after January 2027 will need Node 22: true of
  // later versions, not of the one llmobs ships, and nothing a user of llmobs can act on.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client(config);
  const where = (key: string) => `s3://${location.bucket}/${key}`;
  return {
    shown,
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        let page;
        try {
          page = await client.send(new ListObjectsV2Command({ Bucket: location.bucket, Prefix: prefix, Delimiter: '/', ContinuationToken: token }));
        } catch (error) {
          throw storageError(error, `cannot list ${where(prefix)}`);
        }
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async read(key, limit) {
      let answer;
      try {
        answer = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: key }));
      } catch (error) {
        if ((error as SdkError).name === 'NoSuchKey') return undefined;
        throw storageError(error, `cannot read ${where(key)}`);
      }
      const body = answer.Body as Readable | undefined;
      if ((answer.ContentLength ?? 0) > limit) {
        body?.destroy();
        throw new CliError(`${where(key)} is larger than ${limit} bytes: not a manifest llmobs wrote`, ExitCode.file, 'storage_object');
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body ?? []) {
        size += (chunk as Buffer).length;
        if (size > limit) {
          body?.destroy();
          throw new CliError(`${where(key)} is larger than ${limit} bytes: not a manifest llmobs wrote`, ExitCode.file, 'storage_object');
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    put(key, body, contentType) {
      return uploadCounted(
        body,
        (stream) => new Upload({ client, params: { Bucket: location.bucket, Key: key, Body: stream, ContentType: contentType }, partSize: PART_BYTES, queueSize: QUEUE_SIZE, leavePartsOnError: false }).done(),
        (error) => storageError(error, `cannot write ${where(key)}`),
      );
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: location.bucket }));
      } catch (error) {
        throw storageError(error, `cannot reach the bucket ${location.bucket}`);
      }
    },
    async close() {
      client.destroy();
    },
  };
}
