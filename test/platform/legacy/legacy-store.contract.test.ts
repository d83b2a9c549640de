// One contract for the legacy store, run against both adapters. Expectations are exact objects, so
// passing on both means the adapters return identical summaries for the same input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mongoUnderTestKind,
  openMongoUnderTest,
  openPostgresUnderTest,
  summaryFixture,
  type AdapterUnderTest,
} from './adapters-under-test.ts';

const noSocials = {
  instagram: null,
  facebook: null,
  tiktok: null,
  twitter: null,
  youtube: null,
  pinterest: null,
};

function legacyStoreContract(name: string, open: () => Promise<AdapterUnderTest>) {
  describe(name, () => {
    let subject: AdapterUnderTest;
    beforeAll(async () => {
      subject = await open();
    });
    afterAll(() => subject?.close());

    async function roundTripsOf(work: () => Promise<unknown>): Promise<number> {
      const before = subject.roundTrips();
      await work();
      return subject.roundTrips() - before;
    }

    it('reads an upserted summary back by domain and by legacy id, every field filled in', async () => {
      const written = summaryFixture({
        title: 'Acme Outdoor',
        screenshotUrl: 'https://cdn.example.com/shots/acme.png',
        socials: { instagram: 'https://instagram.com/acme', tiktok: null },
        emails: ['hello@acme.example'],
        lastCrawledAt: '2025-05-01T12:00:00+02:00',
      });
      await subject.store.upsert(written);

      const expected = {
        domain: written.domain,
        legacyId: written.legacyId,
        title: 'Acme Outdoor',
        description: null,
        screenshotUrl: 'https://cdn.example.com/shots/acme.png',
        socials: { ...noSocials, instagram: 'https://instagram.com/acme' },
        emails: ['hello@acme.example'],
        phones: [],
        lastCrawledAt: '2025-05-01T10:00:00.000Z',
      };
      const byDomain = await subject.store.findByDomains([written.domain]);
      expect(byDomain.get(written.domain)).toStrictEqual(expected);
      const byLegacyId = await subject.store.findByLegacyIds([written.legacyId]);
      expect(byLegacyId.get(written.legacyId)).toStrictEqual(expected);
    });

    it('answers a batch of 100 keys in one round trip, with only the keys that exist', async () => {
      const stored = Array.from({ length: 100 }, () => summaryFixture());
      await subject.store.upsertMany(stored);
      const missing = Array.from({ length: 20 }, () => summaryFixture());

      let byDomain = new Map();
      const domainTrips = await roundTripsOf(async () => {
        byDomain = await subject.store.findByDomains([...stored, ...missing].map((s) => s.domain));
      });
      expect(domainTrips).toBe(1);
      expect([...byDomain.keys()].sort()).toEqual(stored.map((s) => s.domain).sort());

      let byLegacyId = new Map();
      const idTrips = await roundTripsOf(async () => {
        byLegacyId = await subject.store.findByLegacyIds(
          [...missing, ...stored].map((s) => s.legacyId),
        );
      });
      expect(idTrips).toBe(1);
      expect([...byLegacyId.keys()].sort()).toEqual(stored.map((s) => s.legacyId).sort());
      expect(byLegacyId.get(stored[7]!.legacyId)?.domain).toBe(stored[7]!.domain);
    });

    it('answers empty inputs with empty maps, without a round trip', async () => {
      const trips = await roundTripsOf(async () => {
        expect((await subject.store.findByDomains([])).size).toBe(0);
        expect((await subject.store.findByLegacyIds([])).size).toBe(0);
        await subject.store.upsertMany([]);
      });
      expect(trips).toBe(0);
    });

    it('replaces the whole summary on upsert: fields left out do not linger', async () => {
      const first = summaryFixture({
        title: 'Old title',
        description: 'Old description',
        socials: { facebook: 'https://facebook.com/old' },
        emails: ['old@example.com'],
        phones: ['+1 555 0100'],
        lastCrawledAt: '2024-01-01T00:00:00Z',
      });
      await subject.store.upsert(first);
      const second = {
        domain: first.domain,
        legacyId: first.legacyId,
        title: 'New title',
        socials: {},
        emails: [],
      };
      await subject.store.upsert(second);

      expect((await subject.store.findByDomains([first.domain])).get(first.domain)).toStrictEqual({
        ...second,
        description: null,
        screenshotUrl: null,
        socials: noSocials,
        phones: [],
        lastCrawledAt: null,
      });
    });

    it('upserts many in one round trip, inserting new stores and replacing known ones', async () => {
      const known = summaryFixture({ title: 'before' });
      await subject.store.upsert(known);
      const fresh = Array.from({ length: 30 }, (_, i) => summaryFixture({ title: `store ${i}` }));
      const batch = [{ ...known, title: 'after', emails: ['x@known.example'] }, ...fresh];

      expect(await roundTripsOf(() => subject.store.upsertMany(batch))).toBe(1);
      const found = await subject.store.findByDomains(batch.map((s) => s.domain));
      expect(found.size).toBe(31);
      expect(found.get(known.domain)).toMatchObject({
        title: 'after',
        emails: ['x@known.example'],
      });
      expect(found.get(fresh[29]!.domain)).toMatchObject({
        title: 'store 29',
        legacyId: fresh[29]!.legacyId,
      });
    });

    it('keeps the last summary when a batch names the same domain twice', async () => {
      const first = summaryFixture({ title: 'first' });
      await subject.store.upsertMany([first, { ...first, title: 'second' }]);
      expect((await subject.store.findByDomains([first.domain])).get(first.domain)?.title).toBe(
        'second',
      );
    });

    it('keeps unicode text intact', async () => {
      const written = summaryFixture({
        domain: `${summaryFixture().domain.split('.')[0]}.bücher-läden.example`,
        title: 'Café Ünïcødé — 東京ストア 🛍️',
        description: 'שלום עולם · مرحبا · नमस्ते · e\u0301 (combining accent)',
        emails: ['jürgen@bücher.example'],
        phones: ['+81 3-1234-5678'],
      });
      await subject.store.upsert(written);
      const read = (await subject.store.findByDomains([written.domain])).get(written.domain);
      expect(read).toMatchObject({
        domain: written.domain,
        title: written.title,
        description: written.description,
        emails: written.emails,
        phones: written.phones,
      });
    });

    it('gives a legacy id to one store only', async () => {
      const owner = summaryFixture();
      await subject.store.upsert(owner);
      await expect(
        subject.store.upsert(summaryFixture({ legacyId: owner.legacyId })),
      ).rejects.toThrow();
      expect(
        (await subject.store.findByLegacyIds([owner.legacyId])).get(owner.legacyId)?.domain,
      ).toBe(owner.domain);
    });

    it('moves a summary to the new domain of a store that moved, keeping its legacy id', async () => {
      const before = summaryFixture({ title: 'Moving Co' });
      await subject.store.upsert(before);
      // a summary a failed earlier write left at the new domain is replaced
      const stale = summaryFixture({ domain: `new-${before.domain}` });
      await subject.store.upsert(stale);
      await subject.store.moveDomain(before.domain, stale.domain);
      expect((await subject.store.findByDomains([before.domain])).size).toBe(0);
      const moved = (await subject.store.findByLegacyIds([before.legacyId])).get(before.legacyId);
      expect(moved).toMatchObject({
        domain: stale.domain,
        legacyId: before.legacyId,
        title: 'Moving Co',
      });
      expect((await subject.store.findByLegacyIds([stale.legacyId])).size).toBe(0);
      // the store's legacy id can now be written at its new domain
      await subject.store.upsert({ ...before, domain: stale.domain, title: 'Moved Co' });
      expect((await subject.store.findByDomains([stale.domain])).get(stale.domain)?.title).toBe(
        'Moved Co',
      );
      // nothing at the old domain: nothing moves
      await subject.store.moveDomain(`none-${before.domain}`, `other-${before.domain}`);
      expect((await subject.store.findByDomains([`other-${before.domain}`])).size).toBe(0);
    });

    it('refuses a malformed summary and writes nothing', async () => {
      const bad = summaryFixture({ legacyId: 'not-a-legacy-id' });
      await expect(subject.store.upsert(bad)).rejects.toThrow(/legacyId/);
      const badDate = summaryFixture({ lastCrawledAt: 'yesterday' });
      await expect(subject.store.upsertMany([summaryFixture(), badDate])).rejects.toThrow(
        /lastCrawledAt/,
      );
      expect((await subject.store.findByDomains([bad.domain, badDate.domain])).size).toBe(0);
    });

    it('reports health with a latency', async () => {
      const health = await subject.store.health();
      expect(health).toMatchObject({ ok: true });
      expect(health.latencyMs).toBeGreaterThanOrEqual(0);
    });
  });
}

legacyStoreContract('postgres-jsonb adapter (legacy_store_summaries)', openPostgresUnderTest);
legacyStoreContract(`mongo adapter (${mongoUnderTestKind})`, openMongoUnderTest);
