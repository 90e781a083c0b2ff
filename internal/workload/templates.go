package workload

// The texts of coder/ai-tokenizer's accuracy workload (scripts/generate-accuracy.ts
// at v1.0.6, MIT licence, Copyright (c) 2025 Coder Technologies Inc.): the
// templates a conversation's messages cycle through and the choices each
// placeholder is filled from. They are the workload's data, kept as the peer
// wrote them so that the rebuilt conversations are the ones it billed.

const systemTemplate = "You are an expert AI assistant specializing in {TECH1} and {TECH2}. Help users with detailed analysis and technical guidance."

var templates = []string{
	"Hello! I need help analyzing customer data from Q{Q} {YEAR}. Can you provide insights on revenue trends, retention rates, and growth patterns?",
	"Write a {LANG} function to calculate {METRIC} with error handling and validation. Include proper type annotations and documentation.",
	"你好！{TOPIC}についての情報を教えてください。한국어로도説명できますか？ Пожалуйста, объясните на русском языке. شكراً لك على المساعدة.",
	"Explain quantum {CONCEPT}: ψ(x) = Ae^(ikx), where ℏω = E_{n}. The Schrödinger equation shows how {PARTICLE} behave at quantum scales.",
	"Emojis test 🚀 {EMOJI1} {EMOJI2} {EMOJI3} ⭐ ✨ • ○ ● ▪ ■ ← → ↔ ≈ ≠ ≤ ≥ ± ∞ ∑ √ special characters tokenize differently!",
	"const {FUNC} = async () => {{ const response = await fetch('{URL}'); const data = await response.json(); return data.{FIELD}; }}; // Modern {LANG} with async/await",
	"Technical: {TECH1}, {TECH2}, {TECH3}, microservices, Docker, PostgreSQL, GraphQL, REST API, OAuth2, JWT, WebSocket, gRPC, serverless, edge computing.",
	"Numbers: {NUM1}, 0x{HEX}, {IP}, UUID: {UUID}, API_KEY_{YEAR}_v{VER}, user_id_{ID}, $price = {PRICE}, discount = {PCT}%, timestamp: {TIMESTAMP}",
	"Mixed content: The café serves {FOOD} 🍮, naïve résumé, Zürich coöperation. Quotes: \"{QUOTE}\". Math: ∀x ∈ ℝ, ∃y. Currency: ${DOLLAR} €{EURO} £{POUND}",
	"Lorem ipsum dolor sit amet, consectetur adipiscing elit. {ACTION} tempor incididunt ut labore et dolore magna aliqua. {PHRASE} ad minim veniam.",
}

// placeholders in the order the peer fills them (its object's key order).
var placeholders = []struct {
	name    string
	choices []string
}{
	{"{Q}", []string{"1", "2", "3", "4"}},
	{"{YEAR}", []string{"2023", "2024", "2025"}},
	{"{LANG}", []string{"Python", "JavaScript", "TypeScript", "Go", "Rust"}},
	{"{METRIC}", []string{"fibonacci", "factorial", "prime numbers", "sorting"}},
	{"{TOPIC}", []string{"機械学習", "人工知能", "データ分析"}},
	{"{CONCEPT}", []string{"entanglement", "superposition", "tunneling"}},
	{"{PARTICLE}", []string{"electrons", "photons", "quarks"}},
	{"{EMOJI1}", []string{"🎉", "🔥", "💯", "🌟"}},
	{"{EMOJI2}", []string{"🎨", "🎭", "🎪", "🎬"}},
	{"{EMOJI3}", []string{"⚡", "🌈", "🎯", "💡"}},
	{"{FUNC}", []string{"fetchData", "processData", "analyzeMetrics"}},
	{"{URL}", []string{"https://api.example.com/v1/data", "https://service.io/api/metrics"}},
	{"{FIELD}", []string{"results", "metrics", "analytics", "insights"}},
	{"{TECH1}", []string{"Kubernetes", "Redis", "Elasticsearch"}},
	{"{TECH2}", []string{"Kafka", "RabbitMQ", "NATS"}},
	{"{TECH3}", []string{"Terraform", "Ansible", "Jenkins"}},
	{"{NUM1}", []string{"1234567890", "9876543210"}},
	{"{HEX}", []string{"1A2B3C4D", "DEADBEEF"}},
	{"{IP}", []string{"192.168.1.1", "10.0.0.1"}},
	{"{UUID}", []string{"550e8400-e29b-41d4-a716-446655440000"}},
	{"{ID}", []string{"42", "1337", "9001"}},
	{"{VER}", []string{"2", "3", "4"}},
	{"{PRICE}", []string{"19.99", "29.99", "49.99"}},
	{"{PCT}", []string{"15", "20", "25"}},
	{"{TIMESTAMP}", []string{"2024-01-15T10:30:45Z", "2025-03-20T14:22:10Z"}},
	{"{FOOD}", []string{"crème brûlée", "café au lait", "pâté"}},
	{"{QUOTE}", []string{"Hello world", "Bonjour monde", "Hola mundo"}},
	{"{DOLLAR}", []string{"100", "250", "500"}},
	{"{EURO}", []string{"85", "200", "425"}},
	{"{POUND}", []string{"75", "175", "375"}},
	{"{ACTION}", []string{"Sed do eiusmod", "Duis aute irure", "Excepteur sint"}},
	{"{PHRASE}", []string{"Ut enim", "Quis nostrud", "Nisi ut"}},
}
