// What the Mongo adapter leaves in store_summaries, and how it reads documents it did not write:
// other tools (and the legacy crawler) share this collection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONGO_COLLECTION } from '../../../src/platform/legacy/mongo-adapter.ts';
import {
  mongoUnderTestKind,
  openMongoUnderTest,
  summaryFixture,
  type MongoUnderTest,
} from './adapters-under-test.ts';

const noSocials = {
  instagram: null,
  facebook: null,
  tiktok: null,
  twitter: null,
  youtube: null,
  pinterest: null,
};

describe(`mongo adapter documents (${mongoUnderTestKind})`, () => {
  let mongo: MongoUnderTest;
  beforeAll(async () => {
    mongo = await openMongoUnderTest();
  });
  afterAll(() => mongo?.close());
  type RawDocument = { _id: string; [field: string]: unknown };
  const collection = () => mongo.client.db(mongo.dbName).collection<RawDocument>(MONGO_COLLECTION);

  it('stores one document per store: the domain as _id, lastCrawledAt as a date', async () => {
    const written = summaryFixture({ title: 'Acme', lastCrawledAt: '2025-03-04T05:06:07.000Z' });
    await mongo.store.upsert(written);
    expect(await collection().findOne({ _id: written.domain })).toStrictEqual({
      _id: written.domain,
      legacyId: written.legacyId,
      title: 'Acme',
      description: null,
      screenshotUrl: null,
      socials: noSocials,
      emails: [],
      phones: [],
      lastCrawledAt: new Date('2025-03-04T05:06:07.000Z'),
    });
  });

  it('reads an older crawler document with missing and unknown fields as a complete summary', async () => {
    const legacyId = summaryFixture().legacyId;
    await collection().insertOne({
      _id: 'old-crawl.example.com',
      legacyId,
      title: 'Old Crawl',
      crawlerVersion: 3,
      socials: { instagram: 'https://instagram.com/old', myspace: 'https://myspace.com/old' },
      emails: ['a@old.example', 42],
      lastCrawledAt: '2019-07-01T00:00:00Z',
    });
    const read = (await mongo.store.findByLegacyIds([legacyId])).get(legacyId);
    expect(read).toStrictEqual({
      domain: 'old-crawl.example.com',
      legacyId,
      title: 'Old Crawl',
      description: null,
      screenshotUrl: null,
      socials: { ...noSocials, instagram: 'https://instagram.com/old' },
      emails: ['a@old.example'],
      phones: [],
      lastCrawledAt: '2019-07-01T00:00:00.000Z',
    });
  });
});
