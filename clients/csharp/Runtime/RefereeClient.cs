using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Scoundrel.Referee
{
    /// <summary>
    /// How a 429 (rate limited) or 503 (the store away) is retried: wait out the answer's Retry-After (1 s
    /// without one) and send again, at most Retries times and MaxWait of waiting in all; an answer asking
    /// for longer is thrown at once, as is the last refusal. A retry is safe with this API: a 429 was
    /// refused before anything happened, a dealt game's move carries the moves the client saw (a repeat is
    /// a 409 that DealtGame.PlayAsync recognises), and a run sent twice is the same run.
    /// </summary>
    public sealed class RetryPolicy
    {
        public static readonly RetryPolicy Default = new RetryPolicy(3, TimeSpan.FromSeconds(10));
        public static readonly RetryPolicy None = new RetryPolicy(0, TimeSpan.Zero);

        public int Retries { get; }
        public TimeSpan MaxWait { get; }

        public RetryPolicy(int retries, TimeSpan maxWait)
        {
            Retries = retries;
            MaxWait = maxWait;
        }
    }

    /// <summary>
    /// The referee's HTTP API (docs/api.md) with async methods: register or sign in, submit runs, play
    /// dealt games, read boards, tournaments and leagues. Every failure is an ApiException of the status
    /// (ConflictException, NotFoundException, …). One client a player: Token is who it acts for (the
    /// player's own token, or a studio's JWT once <see cref="SignInAsync"/> has checked it).
    /// </summary>
    public sealed class RefereeClient : IDisposable
    {
        private readonly HttpClient http;
        private readonly bool ownsHttp;

        /// <summary>The API's base URL, e.g. https://referee.example.com (without /v1).</summary>
        public string BaseUrl { get; }
        /// <summary>The bearer token sent with every request, or null.</summary>
        public string Token { get; set; }
        public RetryPolicy Retry { get; set; } = RetryPolicy.Default;

        /// <summary>A client of the API at baseUrl; pass an HttpClient to share one (it is then not disposed here).</summary>
        public RefereeClient(string baseUrl, string token = null, HttpClient http = null)
        {
            BaseUrl = baseUrl.TrimEnd('/');
            Token = token;
            this.http = http ?? new HttpClient();
            ownsHttp = http == null;
        }

        public void Dispose()
        {
            if (ownsHttp) http.Dispose();
        }

        // ---- players ----

        /// <summary>Register a player name (3–32 of A–Z a–z 0–9 _ -): the name and its token, shown once. Sets Token to it.</summary>
        public async Task<Registration> RegisterAsync(string name, CancellationToken cancellation = default(CancellationToken))
        {
            var answer = await SendAsync(HttpMethod.Post, "/v1/players", new JsonObject { { "name", name } }, cancellation, anonymous: true);
            var registration = new Registration((JsonObject)answer.Body);
            Token = registration.Token;
            return registration;
        }

        /// <summary>
        /// Sign in with a studio's token (a JWT from an issuer the service trusts): from now on the client
        /// acts with it. Returns the name of the account's player. An account with no player yet is linked
        /// to one named <paramref name="name"/> (ForbiddenException with Reason "not_linked" without a name);
        /// a token refused is an UnauthorizedException whose Reason says why.
        /// </summary>
        public async Task<string> SignInAsync(string studioToken, string name = null, CancellationToken cancellation = default(CancellationToken))
        {
            Token = studioToken;
            try
            {
                return await WhoAmIAsync(cancellation);
            }
            catch (ForbiddenException refused) when (refused.Reason == "not_linked" && name != null)
            {
                var answer = await SendAsync(HttpMethod.Post, "/v1/players", new JsonObject { { "name", name } }, cancellation);
                return ((JsonObject)answer.Body).GetString("name");
            }
        }

        /// <summary>The name of the player the token acts as (GET /v1/players/me).</summary>
        public async Task<string> WhoAmIAsync(CancellationToken cancellation = default(CancellationToken))
        {
            return (await GetJsonAsync("/v1/players/me", cancellation)).GetString("name");
        }

        // ---- runs ----

        /// <summary>
        /// Submit a run for verification: the run (pending until a worker has judged it), whether it is new,
        /// and its URL. InvalidRequestException with field Errors for a malformed one.
        /// </summary>
        public async Task<SubmittedRun> SubmitRunAsync(Submission run, string idempotencyKey = null,
            CancellationToken cancellation = default(CancellationToken))
        {
            var headers = idempotencyKey == null ? null : new Dictionary<string, string> { { "Idempotency-Key", idempotencyKey } };
            var answer = await SendAsync(HttpMethod.Post, "/v1/runs", run.ToJson(), cancellation, headers: headers);
            return new SubmittedRun(new Run((JsonObject)answer.Body), answer.Status == 202, answer.Location);
        }

        public async Task<Run> GetRunAsync(string runId, CancellationToken cancellation = default(CancellationToken))
        {
            return new Run(await GetJsonAsync("/v1/runs/" + Uri.EscapeDataString(runId), cancellation));
        }

        /// <summary>
        /// Poll a run until it leaves pending (every interval, 500 ms by default; longer when a 429 or 503
        /// asks). After timeout (30 s by default) an ApiException with code "timeout".
        /// </summary>
        public async Task<Run> WaitForVerdictAsync(string runId, TimeSpan? interval = null, TimeSpan? timeout = null,
            CancellationToken cancellation = default(CancellationToken))
        {
            var every = interval ?? TimeSpan.FromMilliseconds(500);
            var deadline = DateTime.UtcNow + (timeout ?? TimeSpan.FromSeconds(30));
            while (true)
            {
                var wait = every;
                try
                {
                    var run = new Run(await GetJsonAsync("/v1/runs/" + Uri.EscapeDataString(runId), cancellation, RetryPolicy.None));
                    if (!run.Pending) return run;
                }
                catch (ApiException refused) when (refused is RateLimitedException || refused is UnavailableException)
                {
                    wait = TimeSpan.FromSeconds(Math.Max(every.TotalSeconds, refused.RetryAfter ?? 0));
                }
                if (DateTime.UtcNow + wait > deadline)
                    throw new ApiException("run " + runId + " has no verdict after " + (timeout ?? TimeSpan.FromSeconds(30)), null, "timeout");
                await Task.Delay(wait, cancellation);
            }
        }

        // ---- dealt games ----

        /// <summary>
        /// Start a dealt game (POST /v1/games). A second game of a variant while one is in play, or a
        /// second sealed daily the same day, is a ConflictException naming the first (GameId: resume it).
        /// With options.Commitment (what NextDealAsync showed), a game committed to another seed is refused.
        /// </summary>
        public async Task<DealtGame> StartGameAsync(GameOptions options = null, CancellationToken cancellation = default(CancellationToken))
        {
            options = options ?? new GameOptions();
            var answer = await SendAsync(HttpMethod.Post, "/v1/games", options.ToJson(), cancellation);
            var game = new DealtGame(this, (JsonObject)answer.Body);
            if (options.Commitment != null && game.State.Commitment != options.Commitment)
                throw new InvalidOperationException("The game's commitment " + game.State.Commitment + " is not the one next-deal showed (" +
                                                    options.Commitment + ").");
            return game;
        }

        /// <summary>A dealt game by id: play on after a restart, or read a finished one.</summary>
        public async Task<DealtGame> ResumeGameAsync(string gameId, CancellationToken cancellation = default(CancellationToken))
        {
            return new DealtGame(this, await GetJsonAsync(DealtGame.PathOf(gameId), cancellation));
        }

        /// <summary>The player's games in play: resume one whose id was lost.</summary>
        public async Task<IReadOnlyList<DealtGame>> GamesInPlayAsync(string player, CancellationToken cancellation = default(CancellationToken))
        {
            var answer = await GetJsonAsync("/v1/players/" + Uri.EscapeDataString(player) + "/games?status=playing", cancellation);
            return answer.GetList("games").OfType<JsonObject>().Select(game => new DealtGame(this, game)).ToList().AsReadOnly();
        }

        /// <summary>The commitment (hex SHA-256) to the server seed of the player's next free game: read it before choosing a client seed.</summary>
        public async Task<string> NextDealAsync(string player, CancellationToken cancellation = default(CancellationToken))
        {
            return (await GetJsonAsync("/v1/players/" + Uri.EscapeDataString(player) + "/next-deal", cancellation)).GetString("commitment");
        }

        /// <summary>Today's sealed daily: {date, commitment, seed}, the seed null until the UTC day is over.</summary>
        public Task<JsonObject> SealedDailyAsync(CancellationToken cancellation = default(CancellationToken))
        {
            return GetJsonAsync("/v1/daily/sealed", cancellation);
        }

        // ---- boards ----

        /// <summary>A page of a board; with among, that player and the players they follow, ranked among themselves.</summary>
        public async Task<BoardPage> BoardAsync(Board board, Page page = null, string among = null,
            CancellationToken cancellation = default(CancellationToken))
        {
            return new BoardPage(await GetJsonAsync(board.Path + QueryOf(board.Query, page, among), cancellation));
        }

        /// <summary>A player's place on a board with <paramref name="around"/> places above and below; NotFoundException if unranked.</summary>
        public async Task<BoardPlace> PlaceAsync(Board board, string player, int around = 5, CancellationToken cancellation = default(CancellationToken))
        {
            var query = QueryOf(board.Query, null, null, "around=" + around);
            return new BoardPlace(await GetJsonAsync(board.PlayerPath(player) + query, cancellation));
        }

        // ---- tournaments ----

        /// <summary>Tournaments by state (upcoming, running, ended): {state, total, tournaments}.</summary>
        public Task<JsonObject> TournamentsAsync(string state = "running", Page page = null, CancellationToken cancellation = default(CancellationToken))
        {
            return GetJsonAsync("/v1/tournaments" + QueryOf("state=" + Uri.EscapeDataString(state), page, null), cancellation);
        }

        /// <summary>A tournament: its rules, state, entrants; with a player's token "you" (joined, attempts left).</summary>
        public Task<JsonObject> TournamentAsync(string tournamentId, CancellationToken cancellation = default(CancellationToken))
        {
            return GetJsonAsync("/v1/tournaments/" + Uri.EscapeDataString(tournamentId), cancellation);
        }

        /// <summary>Join a tournament: true when joined now, false when the player had already; ConflictException (Reason ended, full) else.</summary>
        public async Task<bool> JoinTournamentAsync(string tournamentId, CancellationToken cancellation = default(CancellationToken))
        {
            var answer = await SendAsync(HttpMethod.Post, "/v1/tournaments/" + Uri.EscapeDataString(tournamentId) + "/join", null, cancellation);
            return ((JsonObject)answer.Body).GetBool("joined");
        }

        /// <summary>
        /// A tournament's standings, as every board's page: among a player and those they follow; around a
        /// player (places either side); a sum tournament's standings on one deal.
        /// </summary>
        public async Task<BoardPage> TournamentStandingsAsync(string tournamentId, Page page = null, string among = null, string around = null,
            int? places = null, int? deal = null, CancellationToken cancellation = default(CancellationToken))
        {
            var extra = new List<string>();
            if (around != null) extra.Add("around=" + Uri.EscapeDataString(around));
            if (places != null) extra.Add("places=" + places);
            if (deal != null) extra.Add("deal=" + deal);
            var path = "/v1/tournaments/" + Uri.EscapeDataString(tournamentId) + "/standings" + QueryOf("", page, among, extra.ToArray());
            return new BoardPage(await GetJsonAsync(path, cancellation));
        }

        // ---- leagues ----

        /// <summary>The caller's league this week: {week, tier, cohort, rank, entries, ends_at, …}.</summary>
        public Task<JsonObject> CurrentLeagueAsync(CancellationToken cancellation = default(CancellationToken))
        {
            return GetJsonAsync("/v1/leagues/current", cancellation);
        }

        /// <summary>A week's league board, every cohort together, as a board's page.</summary>
        public async Task<BoardPage> LeagueAsync(string week, Page page = null, string among = null, CancellationToken cancellation = default(CancellationToken))
        {
            return new BoardPage(await GetJsonAsync("/v1/leagues/" + Uri.EscapeDataString(week) + QueryOf("", page, among), cancellation));
        }

        /// <summary>A cohort's standings, each place with its zone (up, down, stays).</summary>
        public Task<JsonObject> CohortAsync(string week, string cohort, CancellationToken cancellation = default(CancellationToken))
        {
            return GetJsonAsync("/v1/leagues/" + Uri.EscapeDataString(week) + "/cohorts/" + Uri.EscapeDataString(cohort), cancellation);
        }

        /// <summary>The player's latest league weeks.</summary>
        public Task<JsonObject> PlayerLeaguesAsync(string player, CancellationToken cancellation = default(CancellationToken))
        {
            return GetJsonAsync("/v1/players/" + Uri.EscapeDataString(player) + "/leagues", cancellation);
        }

        // ---- the one way a request is made ----

        private static string QueryOf(string fixedPart, Page page, string among, params string[] extra)
        {
            var parts = new List<string>();
            if (!string.IsNullOrEmpty(fixedPart)) parts.Add(fixedPart);
            if (page != null)
            {
                parts.Add("limit=" + page.Limit);
                parts.Add("offset=" + page.Offset);
            }
            if (among != null) parts.Add("among=" + Uri.EscapeDataString(among));
            parts.AddRange(extra);
            return parts.Count == 0 ? "" : "?" + string.Join("&", parts);
        }

        internal async Task<JsonObject> GetJsonAsync(string path, CancellationToken cancellation, RetryPolicy retry = null)
        {
            return (JsonObject)(await SendAsync(HttpMethod.Get, path, null, cancellation, retry: retry)).Body;
        }

        internal sealed class Answer
        {
            public int Status;
            public object Body;
            public string Location;
        }

        /// <summary>
        /// One request, JSON in and out, with Token unless anonymous; retried after a 429 or 503 as Retry says;
        /// an ApiException for any other refusal.
        /// </summary>
        internal async Task<Answer> SendAsync(HttpMethod method, string path, object body, CancellationToken cancellation,
            RetryPolicy retry = null, Dictionary<string, string> headers = null, bool anonymous = false)
        {
            var policy = retry ?? Retry;
            var waited = TimeSpan.Zero;
            for (var attempt = 0;; attempt++)
            {
                try
                {
                    return await SendOnceAsync(method, path, body, cancellation, headers, anonymous ? null : Token);
                }
                catch (ApiException refused) when (refused is RateLimitedException || refused is UnavailableException)
                {
                    var wait = TimeSpan.FromSeconds(refused.RetryAfter ?? 1);
                    if (attempt >= policy.Retries || waited + wait > policy.MaxWait) throw;
                    waited += wait;
                    await Task.Delay(wait, cancellation);
                }
            }
        }

        private async Task<Answer> SendOnceAsync(HttpMethod method, string path, object body, CancellationToken cancellation,
            Dictionary<string, string> headers, string token)
        {
            var url = BaseUrl + path;
            using (var request = new HttpRequestMessage(method, url))
            {
                request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
                if (token != null) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
                if (headers != null)
                    foreach (var header in headers) request.Headers.TryAddWithoutValidation(header.Key, header.Value);
                if (body != null)
                {
                    request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(Json.Write(body)));
                    request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
                }
                HttpResponseMessage response;
                try
                {
                    response = await http.SendAsync(request, cancellation);
                }
                catch (HttpRequestException failed)
                {
                    throw new ApiException(method + " " + url + " failed: " + failed.Message, null, "network_error", cause: failed);
                }
                using (response)
                {
                    var text = response.Content == null ? "" : await response.Content.ReadAsStringAsync();
                    var parsed = ParseBody(text);
                    var status = (int)response.StatusCode;
                    if (status >= 200 && status < 300)
                    {
                        var location = response.Headers.Location == null ? null : response.Headers.Location.ToString();
                        return new Answer { Status = status, Body = parsed, Location = location };
                    }
                    var retryAfter = ApiException.ParseRetryAfter(
                        response.Headers.Contains("Retry-After") ? string.Join(",", response.Headers.GetValues("Retry-After")) : null,
                        DateTimeOffset.UtcNow);
                    throw ApiException.Of(status, method + " " + url + ": " + status + " " + Describe(status, parsed), parsed, retryAfter);
                }
            }
        }

        private static object ParseBody(string text)
        {
            if (string.IsNullOrEmpty(text)) return null;
            try
            {
                return Json.Parse(text);
            }
            catch (JsonFormatException)
            {
                return text;
            }
        }

        private static string Describe(int status, object body)
        {
            var json = body as JsonObject;
            if (json != null)
                foreach (var key in new[] { "message", "error", "detail" })
                    if (json.GetString(key) != null) return json.GetString(key);
            var text = body as string;
            return string.IsNullOrEmpty(text) ? "HTTP " + status : text.Length > 200 ? text.Substring(0, 200) : text;
        }
    }

    /// <summary>
    /// What a dealt game is started with: its variant; the sealed daily (Challenge "daily", classic only);
    /// a client seed of the player's own (1–64 of A–Z a–z 0–9 _ -, e.g. Commitments.DrawClientSeed())
    /// with the Commitment next-deal showed; or a tournament's game (and which of its sealed decks).
    /// </summary>
    public sealed class GameOptions
    {
        public Variant Variant { get; set; } = Variant.Classic;
        public string Challenge { get; set; }
        public string ClientSeed { get; set; }
        public string Commitment { get; set; }
        public string Tournament { get; set; }
        public int? Deal { get; set; }

        internal JsonObject ToJson()
        {
            var json = new JsonObject();
            if (Tournament == null) json["variant"] = Variant.Name(); // a tournament's game is of its variant
            if (Challenge != null) json["challenge"] = Challenge;
            if (ClientSeed != null) json["client_seed"] = ClientSeed;
            if (Tournament != null) json["tournament"] = Tournament;
            if (Deal != null) json["deal"] = (long)Deal.Value;
            return json;
        }
    }
}
