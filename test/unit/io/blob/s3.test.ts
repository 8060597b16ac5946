import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openS3Target, parseS3Url, storageError } from '../../../../src/io/blob/s3.js';
import { S3_KEYS, type S3Server, startS3Server } from '../../../helpers/s3-server.js';

let s3: S3Server;
const saved = { ...process.env };

beforeAll(async () => {
  s3 = await startS3Server(['lake']);
  Object.assign(process.env, S3_KEYS);
});

afterAll(async () => {
  process.env = saved;
  await s3.close();
});

/** `parts` pieces of 1 MiB, each filled from its index. */
function* pieces(parts: number, failAt?: number): Generator<Buffer> {
  for (let i = 0; i < parts; i++) {
    if (i === failAt) throw new Error('the source failed');
    yield Buffer.alloc(1024 * 1024, i % 251);
  }
}

/** The pieces as a stream, produced as they are read. */
function mebibytes(parts: number, failAt?: number): Readable {
  return Readable.from(pieces(parts, failAt));
}

describe('parseS3Url', () => {
  it('takes the bucket and a prefix that ends with /', () => {
    expect(parseS3Url('s3://lake')).toEqual({ bucket: 'lake', prefix: '' });
    expect(parseS3Url('s3://lake/')).toEqual({ bucket: 'lake', prefix: '' });
    expect(parseS3Url('s3://lake/a/b')).toEqual({ bucket: 'lake', prefix: 'a/b/' });
    expect(parseS3Url('s3://lake/a/b/')).toEqual({ bucket: 'lake', prefix: 'a/b/' });
    for (const bad of ['s3://', 's3://UPPER/', 's3://a/', 's3://lake//x', 'http://lake/']) expect(parseS3Url(bad)).toHaveProperty('error');
  });
});

describe('the S3 target', () => {
  const target = () => openS3Target({ bucket: 'lake', prefix: '' }, 's3://lake/', { endpoint: s3.endpoint, forcePathStyle: true });

  it('uploads a stream larger than a part as a multipart upload and says how many bytes it stored', async () => {
    const t = target();
    const bytes = await t.put('big/file.bin', mebibytes(12), 'application/octet-stream');
    expect(bytes).toBe(12 * 1024 * 1024);
    const stored = await s3.store('lake').get('big/file.bin');
    const want = createHash('sha256');
    for (const chunk of pieces(12)) want.update(chunk);
    expect(createHash('sha256').update(stored).digest('hex')).toBe(want.digest('hex'));
    expect(await t.list('big/')).toEqual(['big/file.bin']);
    await t.close();
  });

  it('leaves the key as it was when the body fails part-way', async () => {
    const t = target();
    await t.put('keep/file.bin', Readable.from([Buffer.from('old')]), 'text/plain');
    await expect(t.put('keep/file.bin', mebibytes(12, 8), 'application/octet-stream')).rejects.toThrow('the source failed');
    expect((await s3.store('lake').get('keep/file.bin')).toString()).toBe('old');
    await t.close();
  });

  it('reads a small object, refuses one past the limit, and answers undefined for a missing key', async () => {
    const t = target();
    await t.put('m/one.json', Readable.from([Buffer.from('{"a":1}')]), 'application/json');
    expect(await t.read('m/one.json', 100)).toBe('{"a":1}');
    expect(await t.read('m/none.json', 100)).toBeUndefined();
    await expect(t.read('m/one.json', 3)).rejects.toThrow('larger than 3 bytes');
    await t.close();
  });
});

describe('storageError', () => {
  it('gives each fault its exit code: credentials 7, a missing bucket 3, the network 4, the rest 5', () => {
    expect(storageError({ name: 'InvalidAccessKeyId', message: 'x', $metadata: { httpStatusCode: 403 } }, 'w').exitCode).toBe(7);
    expect(storageError({ name: 'Unknown', message: 'UnknownError', $metadata: { httpStatusCode: 403 } }, 'w').message).toBe('w: the store answered 403');
    expect(storageError({ name: 'NoSuchBucket', message: 'x', $metadata: { httpStatusCode: 404 } }, 'w').exitCode).toBe(3);
    expect(storageError({ name: 'CredentialsProviderError', message: 'Could not load credentials from any providers' }, 'w').exitCode).toBe(3);
    expect(storageError({ name: 'Error', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, 'w').exitCode).toBe(4);
    expect(storageError({ name: 'InternalError', message: 'x', $metadata: { httpStatusCode: 500 } }, 'w').exitCode).toBe(5);
  });
});
