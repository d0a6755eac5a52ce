import { setTimeout as delay } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { expect, test } from 'vitest';
import { GroupCommit } from '../../src/store/group-commit.js';

test('a group waits for a transaction open on its connection, so that transaction rolling back keeps the group', async () => {
  const database = new SqliteDatabase(':memory:');
  database.exec('create table moves (id integer primary key)');
  const commits = new GroupCommit(database);
  // Another writer's transaction, paused between its statements as an awaited query would be.
  database.exec('begin immediate');
  database.exec('insert into moves (id) values (1)');
  const written = commits.submit(() => database.prepare('insert into moves (id) values (2)').run().changes);
  await delay(20);
  database.exec('rollback');
  expect(await written).toBe(1);
  expect(database.prepare('select id from moves').all()).toEqual([{ id: 2 }]);
  database.close();
});
