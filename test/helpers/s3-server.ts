// A real S3-compatible server for the tests: s3rver on a random loopback port, its store in a
// temporary folder, with the buckets asked for. It checks request signatures against its one
// account (S3RVER / S3RVER), so a wrong key is refused as S3 refuses it.
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { BlobStore } from './blob-reader.js';
import { tempDir } from './cli.js';

export const S3_KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface S3Server {
  endpoint: string;
  /** A client of the server, as a consumer has one. */
  client: S3Client;
  store(bucket: string): BlobStore;
  close(): Promise<void>;
}

export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: tempDir('llmobs-s3-'), configureBuckets: buckets.map((name) => ({ name, configs: [] })) });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'auto', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  return {
    endpoint,
    client,
    store: (bucket) => ({
      async list(prefix) {
        const keys: string[] = [];
        let token: string | undefined;
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
          keys.push(...(page.Contents ?? []).map((o) => o.Key!));
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        return keys;
      },
      async get(key) {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      },
    }),
    async close() {
      client.destroy();
      await server.close();
    },
  };
}
