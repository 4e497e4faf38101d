// One more API server process on the test's database, for tests of what instances share: prints
// its URL as one JSON line, serves until killed.
import { startApiServer } from '../api-server';

// Its clients, in the test's process, check the exchanges against the OpenAPI document.
const server = await startApiServer({ checkConformance: false });
console.log(JSON.stringify({ url: server.url }));
process.on('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
