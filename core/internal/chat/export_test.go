package chat

// What the external tests (package chat_test, which count through core's
// registry) use of the package's own.
var RandomGeminiRequest = randomGeminiRequest
