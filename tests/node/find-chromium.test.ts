import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script of the repo, without declarations
import { findChromium } from '../../scripts/find-chromium.mjs';

type Found = { path?: string; why?: string };
const find = (): Found => findChromium({ install: false, log: () => {} });
const saved = process.env.CHROMIUM_PATH;

describe('npm test finds a Chromium before anything runs', () => {
  afterEach(() => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  });

  it('uses CHROMIUM_PATH when it names a file that exists', () => {
    process.env.CHROMIUM_PATH = process.execPath; // any existing executable stands in
    expect(find()).toEqual({ path: process.execPath });
  });

  it('stops with one message naming both ways to get a browser when CHROMIUM_PATH is wrong', () => {
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    const found = find();
    expect(found.path).toBeUndefined();
    expect(found.why).toContain('/nonexistent/chromium');
    expect(found.why).toContain('apt-get install chromium');
    expect(found.why).toContain('npx playwright install chromium');
  });
});
