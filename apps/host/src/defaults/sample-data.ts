import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { samplePng } from './sample-image.ts';

export interface SampleData {
  database: string;
  workspace: string;
  outbox: string;
  imagesOut: string;
}

const books: [string, string, number, string, number][] = [
  ['The Left Hand of Darkness', 'Ursula K. Le Guin', 1969, 'science fiction', 4.2],
  ['A Wizard of Earthsea', 'Ursula K. Le Guin', 1968, 'fantasy', 4.0],
  ['Kindred', 'Octavia E. Butler', 1979, 'science fiction', 4.3],
  ['Parable of the Sower', 'Octavia E. Butler', 1993, 'science fiction', 4.2],
  ['Beloved', 'Toni Morrison', 1987, 'literary fiction', 3.9],
  ['The Remains of the Day', 'Kazuo Ishiguro', 1989, 'literary fiction', 4.1],
  ['Never Let Me Go', 'Kazuo Ishiguro', 2005, 'literary fiction', 3.9],
  ['Middlemarch', 'George Eliot', 1871, 'classic', 4.0],
  ['Frankenstein', 'Mary Shelley', 1818, 'classic', 3.9],
  ['The Dispossessed', 'Ursula K. Le Guin', 1974, 'science fiction', 4.2],
  ['Piranesi', 'Susanna Clarke', 2020, 'fantasy', 4.3],
  ['Jonathan Strange & Mr Norrell', 'Susanna Clarke', 2004, 'fantasy', 3.9],
];

function createDatabase(path: string): void {
  // Required here, not imported: only the first start on the embedded defaults writes the sample database, and
  // loading better-sqlite3 (its native addon) cost every other start too.
  const { createRequire } = process.getBuiltinModule('node:module');
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  const partial = `${path}.partial`;
  const db = new Database(partial);
  db.exec(`
    CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE books (
      id INTEGER PRIMARY KEY,
      title TEXT NOT NULL,
      author_id INTEGER NOT NULL REFERENCES authors(id),
      year INTEGER NOT NULL,
      genre TEXT NOT NULL,
      rating REAL NOT NULL
    );
  `);
  const author = db.prepare('INSERT OR IGNORE INTO authors (name) VALUES (?)');
  const authorId = db.prepare('SELECT id FROM authors WHERE name = ?').pluck();
  const book = db.prepare('INSERT INTO books (title, author_id, year, genre, rating) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const [title, name, year, genre, rating] of books) {
      author.run(name);
      book.run(title, authorId.get(name), year, genre, rating);
    }
  })();
  db.close();
  renameSync(partial, path);
}

/**
 * The sample data the host's embedded defaults work on, made on first run
 * under `directory`: a small SQLite library catalogue, a workspace with a
 * few notes and a picture, an outbox for email, and a folder for edited
 * images. Existing files are left as they are.
 */
export function ensureSampleData(directory: string): SampleData {
  const workspace = join(directory, 'workspace');
  const data: SampleData = {
    database: join(directory, 'library.db'),
    workspace,
    outbox: join(directory, 'outbox'),
    imagesOut: join(workspace, 'edited'),
  };
  for (const path of [directory, workspace, data.outbox, data.imagesOut]) mkdirSync(path, { recursive: true });
  if (!existsSync(data.database)) createDatabase(data.database);
  const files: [string, string | Buffer][] = [
    [
      'README.md',
      '# Sample workspace\n\nThe Toolshed host serves this folder to the filesystem and image tools. ' +
        'Edit, add and delete freely: it is yours.\n',
    ],
    ['notes/reading-list.md', '# Reading list\n\n- Piranesi\n- The Dispossessed\n- Kindred\n'],
    ['notes/ideas.txt', 'Compare the 1970s science fiction in library.db with what came after.\n'],
    ['pictures/seaside.png', samplePng()],
  ];
  for (const [name, content] of files) {
    const path = join(workspace, name);
    if (existsSync(path)) continue;
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
  return data;
}
