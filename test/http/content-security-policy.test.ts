// The nonce slots of a page (src/http/content-security-policy.ts), on worked examples: every
// <script> tag the HTML parser would open gets the answer's nonce, and nothing inside a script's
// text does, since that text ends only at the first </script.
import { describe, expect, it } from 'vitest';
import { withScriptNonces } from '../../src/http/content-security-policy.ts';

describe('withScriptNonces', () => {
  it('puts the nonce in each script tag, in any case, and leaves script text alone', () => {
    const page = withScriptNonces(
      '<head><SCRIPT src="/a.js"></SCRIPT><script type="module">const t = "<script>";</script></head>' +
        '<body><p>no script</p><script>x = "<\\/script>"</script></body>',
    );
    expect(page('N1')).toBe(
      '<head><SCRIPT nonce="N1" src="/a.js"></SCRIPT><script nonce="N1" type="module">const t = "<script>";</script></head>' +
        '<body><p>no script</p><script nonce="N1">x = "<\\/script>"</script></body>',
    );
    // each answer its own nonce, from the one scan
    expect(page('N2')).toContain('<script nonce="N2" type="module">');
    expect(page('N2')).not.toContain('N1');
  });

  it('leaves a page without scripts as it is', () => {
    expect(withScriptNonces('<p>plain</p>')('N')).toBe('<p>plain</p>');
  });
});
