// Setup of the `unit` project (every *.test.ts that is not *.integration.test.ts): the test settings
// and no database. A unit test that reaches the database fails with "DATABASE_URL is not set":
// name it *.integration.test.ts and it gets one.
import { TEST_ENV } from './env';

delete process.env.DATABASE_URL;
Object.assign(process.env, TEST_ENV);
