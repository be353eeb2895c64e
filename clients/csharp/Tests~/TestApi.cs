using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Scoundrel.Referee;

/// <summary>
/// The API client against a running service (tests/clients/test_csharp.py starts one): SCOUNDREL_URL, two
/// players' tokens (SCOUNDREL_TOKEN, SCOUNDREL_OTHER_TOKEN), a studio's JWT for an account with no player
/// yet (SCOUNDREL_STUDIO_TOKEN) and a running tournament (SCOUNDREL_TOURNAMENT). Every game is played with
/// only what the API shows.
/// </summary>
public static class ApiTests
{
    private static readonly string BaseUrl = Environment.GetEnvironmentVariable("SCOUNDREL_URL");
    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    private static RefereeClient Client(string variable)
    {
        return new RefereeClient(BaseUrl, Environment.GetEnvironmentVariable(variable));
    }

    /// <summary>A player who sees only the legal moves: a weapon fight, then a weapon or a potion, then the weakest monster barehanded.</summary>
    public static string Choose(IReadOnlyList<string> legal)
    {
        Func<string, int> value = move => move == Move.FleeNotation ? 0 : Move.Parse(move).Value;
        var weakestFirst = legal.Where(move => move != Move.FleeNotation).OrderBy(value).ToList();
        return weakestFirst.LastOrDefault(move => move.EndsWith("w")) ??
               weakestFirst.LastOrDefault(move => move[0] == 'D' || move[0] == 'H') ??
               weakestFirst.FirstOrDefault(move => move.EndsWith("b")) ??
               legal[0];
    }

    private static async Task<DealtGameState> PlayOut(DealtGame game)
    {
        while (!game.Over) await game.PlayAsync(Choose(game.LegalMoves()));
        return game.State;
    }

    public static IEnumerable<KeyValuePair<string, Func<Task>>> All()
    {
        return new Dictionary<string, Func<Task>>
        {
            { "every variant: a dealt game played to its end, the seed revealed, the deal and the verdict check out", DealtGamesToTheEnd },
            { "a game played locally is submitted as a run and verified with the local verdict; sent again, the same run", OpenRun },
            { "boards: a page, a place with the places around it, among a player and those they follow", Boards },
            { "a client seed: the deck comes from the committed server seed and the player's seed", ClientSeed },
            { "an illegal move is an IllegalMoveException with the engine's code, ruling and index; nothing is played", IllegalMove },
            { "a racing move is a ConflictException with the state refreshed; a retry never plays twice", Conflicts },
            { "errors are typed by status: 401, 404, 409 with the game in play, 422 with field errors", TypedErrors },
            { "a studio's JWT signs in: not linked until named, then it plays", StudioSignIn },
            { "tournaments: read, joined once, a game of it, its standings", Tournaments },
            { "leagues: the week's league after a classic dealt game, its board, the cohort, the player's weeks", Leagues },
        }.Select(check => new KeyValuePair<string, Func<Task>>(check.Key, check.Value));
    }

    private static async Task DealtGamesToTheEnd()
    {
        using (var api = Client("SCOUNDREL_TOKEN"))
        {
            foreach (var variant in new[] { Variant.Classic, Variant.Easy, Variant.Hard })
            {
                var game = await api.StartGameAsync(new GameOptions { Variant = variant });
                var start = game.State;
                Assert.Equal("playing " + variant.Name() + " 4 40", start.Status + " " + start.Variant + " " + start.Room.Count + " " + start.DungeonCount, "a new game");
                Assert.True(start.Seed == null, "the seed is sealed while the game is played");
                var end = await PlayOut(game);
                Assert.True(end.Won || end.Lost, "ended as " + end.Status);
                Assert.Equal(end.Commitment, Commitments.CommitmentOf(end.Seed), "SHA-256 of the revealed seed");
                var check = await game.VerifyCommitmentAsync(Poll, Patience);
                Assert.True(check.Ok, "the deal checks out: " + string.Join("; ", check.Mismatches) + " " + check.Run.Json);
                Assert.Equal("verified " + end.Status + " " + end.Id, check.Run.Status + " " + check.Run.Outcome + " " + check.Run.GameId, "the run");
                Assert.Equal(check.Run.Score, (await game.RefreshAsync()).Score, "the game shows its run's score");
            }
        }
    }

    private static string openSeed;

    private static async Task OpenRun()
    {
        using (var api = Client("SCOUNDREL_TOKEN"))
        {
            openSeed = "csharp-" + Guid.NewGuid().ToString("N").Substring(0, 12);
            var game = Game.Start(openSeed);
            while (!game.Over) game.Play(Choose(game.LegalMoves()));
            var submitted = await api.SubmitRunAsync(game.ToSubmission());
            Assert.True(submitted.Created && submitted.Location.Contains(submitted.Run.Id), "202 with its Location");
            var run = await api.WaitForVerdictAsync(submitted.Run.Id, Poll, Patience);
            var local = game.Verdict();
            Assert.Equal(local.Status + " " + local.Outcome + " " + local.Score + " " + local.Health,
                run.Status + " " + run.Outcome + " " + run.Score + " " + run.Health, "the service's verdict is the local one");
            var again = await api.SubmitRunAsync(game.ToSubmission());
            Assert.Equal(false, again.Created, "sent again: not a new run");
            Assert.Equal(submitted.Run.Id, again.Run.Id, "the same run");
        }
    }

    private static async Task Boards()
    {
        using (var api = Client("SCOUNDREL_TOKEN"))
        {
            var me = await api.WhoAmIAsync();
            var seedBoard = await api.BoardAsync(Board.Seed(openSeed), new Page(10));
            Assert.Equal(1, seedBoard.Total, "the seed's board holds the run");
            Assert.Equal(me + " 1", seedBoard.Entries[0].Player + " " + seedBoard.Entries[0].Rank, "its entry");
            var open = await api.BoardAsync(Board.Open(Variant.Classic), new Page(5));
            Assert.True(open.Total >= 1 && open.Entries.Any(entry => entry.Player == me), "the open board lists the player");
            var place = await api.PlaceAsync(Board.Open(Variant.Classic), me, around: 2);
            Assert.True(place.Rank >= 1 && place.Around.Any(entry => entry.Player == me && entry.Rank == place.Rank), "the place with those around it");
            var among = await api.BoardAsync(Board.Dealt(Variant.Classic), among: me);
            Assert.Equal(me, among.Among, "among names the player as registered");
            Assert.True(among.Entries.All(entry => entry.GlobalRank >= entry.Rank), "each entry with its place on the whole board");
            var unranked = await Assert.ThrowsAsync<NotFoundException>(() => api.PlaceAsync(Board.Seed("never-played-here"), me), "no place");
            Assert.Equal("not_found", unranked.Code, "code");
        }
    }

    private static async Task ClientSeed()
    {
        using (var api = Client("SCOUNDREL_TOKEN"))
        {
            var commitment = await api.NextDealAsync(await api.WhoAmIAsync());
            var mine = Commitments.DrawClientSeed();
            var game = await api.StartGameAsync(new GameOptions { Variant = Variant.Easy, ClientSeed = mine, Commitment = commitment });
            Assert.Equal(commitment + " " + mine, game.State.Commitment + " " + game.State.ClientSeed, "committed, with the player's seed");
            await game.PlayAsync(Choose(game.LegalMoves()));
            var ended = await game.ForfeitAsync();
            Assert.True(ended.Forfeited && ended.LegalMoves.Count == 0, "forfeit, no move left");
            var check = await game.VerifyCommitmentAsync(Poll, Patience);
            Assert.True(check.Ok && check.CommitmentMatches, "the deal checks out: " + string.Join("; ", check.Mismatches));
            Assert.Equal(Commitments.DealtSeed(check.ServerSeed, mine), check.Seed, "the seed derived from both");
            Assert.Equal("forfeit forfeit", check.Verdict.Outcome + " " + check.Run.Outcome, "R18");
        }
    }

    private static async Task IllegalMove()
    {
        using (var api = Client("SCOUNDREL_TOKEN"))
        {
            var game = await api.StartGameAsync();
            while (!game.State.Room.Any(card => Cards.KindOf(card) == CardKind.Monster))
            {
                await game.ForfeitAsync(); // a first room without a monster: another game
                game = await api.StartGameAsync();
            }
            var monster = game.State.Room.First(card => Cards.KindOf(card) == CardKind.Monster);
            var refused = await Assert.ThrowsAsync<IllegalMoveException>(() => game.PlayAsync(monster + "w"), "a weapon fight without a weapon");
            Assert.Equal("weapon_not_usable R11 0 " + monster + "w", refused.Code + " " + refused.Ruling + " " + refused.MoveIndex + " " + refused.Move, "the refusal");
            Assert.Equal("Move 1: No weapon is equipped, so " + monster + " can only be fought barehanded (R11).", refused.Message, "the referee's words");
            Assert.True(refused.InnerException is InvalidRequestException, "the 422 as its cause");
            var first = game.LegalMoves().First(move => move != Move.FleeNotation);
            var twice = await Assert.ThrowsAsync<IllegalMoveException>(() => game.PlayAsync(new[] { first, first }), "a card played twice");
            Assert.Equal("card_not_in_room 1", twice.Code + " " + twice.MoveIndex, "the second move refused");
            Assert.Equal(0, (await game.RefreshAsync()).Moves.Count, "nothing was played");
            Assert.Throws<NotationException>(() => game.PlayAsync("S8").GetAwaiter().GetResult(), "outside the notation");
            await game.ForfeitAsync();
        }
    }

    private static async Task Conflicts()
    {
        using (var api = Client("SCOUNDREL_TOKEN"))
        {
            var mine = await api.StartGameAsync();
            var tab = await api.ResumeGameAsync(mine.State.Id);
            var lost = await api.ResumeGameAsync(mine.State.Id);
            var moves = mine.LegalMoves().Where(move => move != Move.FleeNotation).ToList();
            await mine.PlayAsync(moves[0]);
            var conflict = await Assert.ThrowsAsync<ConflictException>(() => tab.PlayAsync(moves[1]), "a move on a game that moved on");
            Assert.Equal(409, conflict.Status, "status");
            Assert.Equal(moves[0], string.Join(" ", tab.State.Moves), "refreshed");
            Assert.Equal(moves[0], string.Join(" ", (await lost.PlayAsync(moves[0])).Moves), "an earlier try got through: not played twice");
            Assert.True((await tab.ForfeitAsync()).Forfeited, "given up from another tab that saw the game as it is");
            await Assert.ThrowsAsync<ConflictException>(() => mine.ForfeitAsync(), "a game over cannot be given up");
        }
    }

    private static async Task TypedErrors()
    {
        using (var api = Client("SCOUNDREL_TOKEN"))
        using (var nobody = new RefereeClient(BaseUrl, "not-a-token"))
        {
            var unauthorized = await Assert.ThrowsAsync<UnauthorizedException>(() => nobody.SubmitRunAsync(new Submission("abc", new[] { "flee" })), "a wrong token");
            Assert.Equal("unauthorized 401", unauthorized.Code + " " + unauthorized.Status, "401");
            await Assert.ThrowsAsync<NotFoundException>(() => api.GetRunAsync("no-such-run"), "no such run");
            var invalid = await Assert.ThrowsAsync<InvalidRequestException>(() => api.SubmitRunAsync(new Submission("a b", new[] { "S8" }, "ranked")), "a malformed run");
            Assert.JsonEqual(new Submission("a b", new[] { "S8" }, "ranked").Errors(), invalid.Errors, "the service's field errors are the library's");
            var first = await api.StartGameAsync(new GameOptions { Variant = Variant.Hard });
            var second = await Assert.ThrowsAsync<ConflictException>(() => api.StartGameAsync(new GameOptions { Variant = Variant.Hard }), "a second game in play");
            Assert.Equal(first.State.Id, second.GameId, "names the game in play");
            using (var other = Client("SCOUNDREL_OTHER_TOKEN"))
                await Assert.ThrowsAsync<NotFoundException>(() => other.ResumeGameAsync(first.State.Id), "another player's game in play");
            await first.ForfeitAsync();
            var me = await api.WhoAmIAsync();
            var taken = await Assert.ThrowsAsync<ConflictException>(() => nobody.RegisterAsync(me.ToUpperInvariant()), "a name taken, in any case");
            Assert.Equal("conflict", taken.Code, "code");
        }
    }

    private static async Task StudioSignIn()
    {
        using (var api = new RefereeClient(BaseUrl))
        {
            var studio = Environment.GetEnvironmentVariable("SCOUNDREL_STUDIO_TOKEN");
            var unlinked = await Assert.ThrowsAsync<ForbiddenException>(() => api.SignInAsync(studio), "an account with no player");
            Assert.Equal("not_linked", unlinked.Reason, "reason");
            var name = "studio-" + Guid.NewGuid().ToString("N").Substring(0, 8);
            Assert.Equal(name, await api.SignInAsync(studio, name), "linked to the name");
            Assert.Equal(name, await api.SignInAsync(studio), "signed in again, the same player");
            var game = await api.StartGameAsync();
            Assert.Equal(name, game.State.Player, "the game is the studio player's");
            await game.ForfeitAsync();
            using (var wrong = new RefereeClient(BaseUrl))
            {
                var refused = await Assert.ThrowsAsync<UnauthorizedException>(() => wrong.SignInAsync(studio.Substring(0, studio.Length - 2) + "xx"), "a forged JWT");
                Assert.True(refused.Reason != null, "a refused studio token says why");
            }
        }
    }

    private static async Task Tournaments()
    {
        using (var api = Client("SCOUNDREL_OTHER_TOKEN"))
        {
            var id = Environment.GetEnvironmentVariable("SCOUNDREL_TOURNAMENT");
            var running = await api.TournamentsAsync("running");
            Assert.True(running.GetList("tournaments").Cast<JsonObject>().Any(t => t.GetString("id") == id), "listed as running");
            Assert.Equal(true, await api.JoinTournamentAsync(id), "joined");
            Assert.Equal(false, await api.JoinTournamentAsync(id), "joined already");
            Assert.Equal(true, (await api.TournamentAsync(id)).GetObject("you").GetBool("joined"), "you: joined");
            var game = await api.StartGameAsync(new GameOptions { Tournament = id });
            Assert.Equal(id, game.State.Tournament, "a game of the tournament");
            var end = await PlayOut(game);
            await api.WaitForVerdictAsync(end.RunId, Poll, Patience);
            var me = await api.WhoAmIAsync();
            var standings = await api.TournamentStandingsAsync(id, new Page(10));
            Assert.True(standings.Entries.Any(entry => entry.Player == me), "the standings list the entrant: " + standings.Json);
            var around = await api.TournamentStandingsAsync(id, around: me, places: 1);
            Assert.True(around.Entries.Any(entry => entry.Player == me), "around the entrant");
        }
    }

    private static async Task Leagues()
    {
        using (var api = Client("SCOUNDREL_TOKEN"))
        {
            var me = await api.WhoAmIAsync();
            var league = await api.CurrentLeagueAsync(); // the classic dealt games above count
            var week = league.GetString("week");
            Assert.True(league.Get("cohort") != null && league.GetInt("rank") >= 1, "placed in a cohort: " + league);
            var board = await api.LeagueAsync(week, new Page(10));
            Assert.True(board.Entries.Any(entry => entry.Player == me), "the week's league board lists the player");
            var cohort = await api.CohortAsync(week, Convert.ToString(league.Get("cohort")));
            Assert.True(cohort.GetList("entries").Count > 0, "the cohort's places: " + cohort);
            var weeks = await api.PlayerLeaguesAsync(me);
            Assert.True(weeks.ToString().Contains(week), "the player's weeks hold this one: " + weeks);
        }
    }
}
