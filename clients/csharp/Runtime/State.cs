using System;
using System.Collections.Generic;
using System.Text;

namespace Scoundrel.Referee
{
    /// <summary>
    /// The position of a game as plain data: everything the rules look at, and nothing else. Mutable
    /// on purpose, as the Python engine's: a replay applies up to 200 moves to one state in place; who
    /// needs a history takes snapshots with <see cref="Copy"/>.
    /// </summary>
    public sealed class GameState
    {
        public const int StartHealth = 20; // R3
        public const int MaxHealth = 20; // R3
        public const int RoomSize = 4; // R4

        // The dungeon is a ring: cards are drawn from its head and avoided rooms go to its tail (R7).
        private const int DungeonRing = 64;
        private const int RingMask = DungeonRing - 1;
        private const int Flat = -1; // the mask of a list that is not a ring

        internal readonly int[] room = new int[RoomSize];
        internal int roomCount;
        internal readonly int[] dungeon = new int[DungeonRing];
        internal int dungeonHead;
        internal int dungeonCount;
        internal int health = StartHealth;
        internal int weapon = -1;
        internal readonly int[] kills = new int[Cards.Count];
        internal int killCount; // by the equipped weapon, oldest first (R9, R10)
        internal int playedInRoom; // cards played since the room was dealt (R4, R6)
        internal bool potionDrunk; // a potion already healed in this room (R8)
        internal bool avoidedLast; // the previous room was avoided, no card played since (R6)
        internal int bonus; // R15: the last card was a potion drunk at full health; its value

        /// <summary>A position before the first room is dealt, the dungeon top first.</summary>
        internal GameState(int[] deck)
        {
            Array.Copy(deck, dungeon, deck.Length);
            dungeonCount = deck.Length;
        }

        private GameState()
        {
        }

        /// <summary>The room in R4 order: the card carried over first, then the cards in the order drawn.</summary>
        public IReadOnlyList<string> Room
        {
            get { return CodesOf(room, 0, roomCount, Flat); }
        }

        /// <summary>The face-down pile, top first.</summary>
        public IReadOnlyList<string> Dungeon
        {
            get { return CodesOf(dungeon, dungeonHead, dungeonCount, RingMask); }
        }

        public int DungeonCount
        {
            get { return dungeonCount; }
        }

        /// <summary>Health, unclamped: 0 or below after a killing blow (R12).</summary>
        public int Health
        {
            get { return health; }
        }

        /// <summary>The equipped weapon's code, or null.</summary>
        public string Weapon
        {
            get { return weapon < 0 ? null : Cards.Codes[weapon]; }
        }

        /// <summary>The monsters the equipped weapon killed, oldest first (R10).</summary>
        public IReadOnlyList<string> Kills
        {
            get { return CodesOf(kills, 0, killCount, Flat); }
        }

        /// <summary>The last monster the equipped weapon killed (R10), or null.</summary>
        public string LastKill
        {
            get { return killCount == 0 ? null : Cards.Codes[kills[killCount - 1]]; }
        }

        public int PlayedInRoom
        {
            get { return playedInRoom; }
        }

        public bool PotionDrunk
        {
            get { return potionDrunk; }
        }

        public bool AvoidedLast
        {
            get { return avoidedLast; }
        }

        public int Bonus
        {
            get { return bonus; }
        }

        /// <summary>R12: health at 0 or below ends the game.</summary>
        public bool IsLost
        {
            get { return health <= 0; }
        }

        /// <summary>R13: dungeon and room empty with health above 0.</summary>
        public bool IsWon
        {
            get { return health > 0 && roomCount == 0 && dungeonCount == 0; }
        }

        public bool IsOver
        {
            get { return health <= 0 || (roomCount == 0 && dungeonCount == 0); }
        }

        /// <summary>R5: the room was dealt with fewer than 4 cards; all of them must be played.</summary>
        internal bool IsShortRoom
        {
            get { return roomCount + playedInRoom < RoomSize; }
        }

        /// <summary>The score of a finished game: R15 for a win, R16 for a loss.</summary>
        public int Score()
        {
            if (IsLost) return health - MonsterTotal(dungeon, dungeonHead, dungeonCount, RingMask);
            return health + bonus;
        }

        /// <summary>R18: a forfeit scores as dying at once, 0 minus every monster not yet defeated (room and dungeon).</summary>
        public int ForfeitScore()
        {
            return -(MonsterTotal(room, 0, roomCount, Flat) + MonsterTotal(dungeon, dungeonHead, dungeonCount, RingMask));
        }

        public GameState Copy()
        {
            var copy = new GameState();
            Array.Copy(room, copy.room, RoomSize);
            Array.Copy(dungeon, copy.dungeon, DungeonRing);
            Array.Copy(kills, copy.kills, kills.Length);
            copy.roomCount = roomCount;
            copy.dungeonHead = dungeonHead;
            copy.dungeonCount = dungeonCount;
            copy.health = health;
            copy.weapon = weapon;
            copy.killCount = killCount;
            copy.playedInRoom = playedInRoom;
            copy.potionDrunk = potionDrunk;
            copy.avoidedLast = avoidedLast;
            copy.bonus = bonus;
            return copy;
        }

        /// <summary>The whole position in one line, equal for equal positions (a test compares snapshots by it).</summary>
        public override string ToString()
        {
            var text = new StringBuilder();
            text.Append("room [").Append(string.Join(" ", Room)).Append("] dungeon [").Append(string.Join(" ", Dungeon));
            text.Append("] health ").Append(health).Append(" weapon ").Append(Weapon ?? "-");
            text.Append(" kills [").Append(string.Join(" ", Kills)).Append("] played ").Append(playedInRoom);
            text.Append(" potion ").Append(potionDrunk).Append(" avoided ").Append(avoidedLast).Append(" bonus ").Append(bonus);
            return text.ToString();
        }

        internal int RoomIndexOf(int card)
        {
            for (var i = 0; i < roomCount; i++)
                if (room[i] == card) return i;
            return -1;
        }

        internal void RemoveFromRoom(int at)
        {
            roomCount--;
            for (var i = at; i < roomCount; i++) room[i] = room[i + 1];
        }

        internal int DrawFromDungeon()
        {
            var card = dungeon[dungeonHead];
            dungeonHead = (dungeonHead + 1) & RingMask;
            dungeonCount--;
            return card;
        }

        internal void PutUnderDungeon(int card)
        {
            dungeon[(dungeonHead + dungeonCount) & RingMask] = card;
            dungeonCount++;
        }

        private static int MonsterTotal(int[] cards, int start, int count, int mask)
        {
            var total = 0;
            for (var k = 0; k < count; k++)
            {
                var card = cards[(start + k) & mask];
                if (Cards.Kinds[card] == CardKind.Monster) total += Cards.Values[card];
            }
            return total;
        }

        private static IReadOnlyList<string> CodesOf(int[] cards, int start, int count, int mask)
        {
            var codes = new string[count];
            for (var k = 0; k < count; k++) codes[k] = Cards.Codes[cards[(start + k) & mask]];
            return Array.AsReadOnly(codes);
        }
    }
}
