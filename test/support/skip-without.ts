// Tests that need a service beyond PostgreSQL (Redis, redis-server, Chromium) skip by name on a
// user's machine that lacks it. CI (CI=true) has every service: there they never skip, so a
// service gone missing fails the run instead of thinning it silently.
export const skipWithout = (available: unknown): boolean => !available && process.env.CI !== 'true';
