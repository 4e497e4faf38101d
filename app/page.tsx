export default function Home() {
  return (
    <main>
      <h1>Switchboard</h1>
      <p>
        <a href="/login">Sign in</a> · <a href="/api/v1/openapi.json">API reference (OpenAPI)</a>
      </p>
    </main>
  );
}
