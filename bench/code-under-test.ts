// The code a bench measures, for its results' header: read before anything runs, so that edits made
// while it runs (a commit, a change in the tree) are not taken for the code measured.
import { execSync } from 'node:child_process';

const git = (cmd: string) => execSync(`git ${cmd}`, { encoding: 'utf8' }).trim();

export function codeUnderTest(): { commit: string; workingTree: string } {
  const dirty = git('status --porcelain').split('\n').filter(Boolean).length;
  return {
    commit: git('rev-parse --short HEAD'),
    workingTree: dirty ? `${dirty} uncommitted paths` : 'clean',
  };
}
