import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';

const TSX = 'node_modules/.bin/tsx';

describe('configuration', () => {
  it('defaults to the embedded backends when no URL is configured', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.MONGODB_URL).toBeUndefined();
    expect(config.PORT).toBe(8080);
  });

  it('treats an empty URL variable as not set', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: ' ' }).DATABASE_URL).toBeUndefined();
  });

  it('names PORT when it is not a port number', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
  });

  it('names DATABASE_URL when it is not a PostgreSQL URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://localhost/db' })).toThrow(
      /DATABASE_URL: must be a URL starting with postgres/,
    );
  });

  it('reads DATABASE_READ_URL as a list of replicas of DATABASE_URL', () => {
    const primary = 'postgresql://db-primary:5432/si';
    expect(loadConfig({ DATABASE_URL: primary }).DATABASE_READ_URL).toEqual([]);
    expect(
      loadConfig({
        DATABASE_URL: primary,
        DATABASE_READ_URL: 'postgresql://r1:5432/si, postgres://r2/si',
      }).DATABASE_READ_URL,
    ).toEqual(['postgresql://r1:5432/si', 'postgres://r2/si']);
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'r1:5432' })).toThrow(
      /DATABASE_READ_URL: must be one or more postgres/,
    );
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgresql://r1/si' })).toThrow(
      /DATABASE_READ_URL: needs DATABASE_URL/,
    );
    expect(() => loadConfig({ DATABASE_READ_MAX_LAG_MS: '10' })).toThrow(
      /DATABASE_READ_MAX_LAG_MS/,
    );
  });

  it('refuses EGRESS_OVERRIDES in production, named hosts and wildcards alike', () => {
    for (const overrides of [
      'shop-a.test=http://127.0.0.1:9101',
      '*.farm.test=http://127.0.0.1:9101',
    ]) {
      expect(() => loadConfig({ NODE_ENV: 'production', EGRESS_OVERRIDES: overrides })).toThrow(
        /EGRESS_OVERRIDES: is for tests and development only/,
      );
      expect(
        loadConfig({ NODE_ENV: 'test', EGRESS_OVERRIDES: overrides }).EGRESS_OVERRIDES.size,
      ).toBe(1);
    }
    expect(loadConfig({ NODE_ENV: 'production' }).EGRESS_OVERRIDES.size).toBe(0);
  });

  it('npm start with a bad value prints the variable and exits 1 before touching any backend', () => {
    const run = spawnSync(TSX, ['app/main.ts'], {
      env: {
        ...process.env,
        PORT: 'not-a-port',
        DATABASE_URL: '',
        DATA_DIR: '/nonexistent/never-created',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/invalid configuration:\n\s+PORT:/);
  });
});
