# /settings: a server's settings for tournaments.

settings-title = Settings of this server
settings-defaults = Defaults for new tournaments
settings-default-line = `{ $option }`: **{ $value }** ({ $whose ->
        [server] this server's
       *[built-in] built in
    })
settings-ignored-line = `{ $option }`: a stored default that is no longer valid, ignored; set it again
setting-value = { $value ->
       *[other] { $label }
    }
settings-channels = Channels for tournaments
settings-any-channel = any channel where I can post boards
settings-announcement-role = Announcement role
settings-role = { $role } is pinged by every announcement
settings-no-role = none: announcements ping nobody
settings-language-name = Language
settings-language = { $code } ({ $name })
settings-language-unchosen = none chosen: the server's language on Discord, { $code } ({ $name })
settings-pace-name = Combats no person plays
settings-pace = a turn every { $seconds } { $seconds ->
        [one] second
       *[other] seconds
    } at most ({ $whose ->
        [server] this server's
       *[built-in] built in
    })
settings-footer = Members with Manage Server change them with /settings.

settings-default-done = New tournaments get { $option }: **{ $value }** unless their host chooses otherwise.
settings-default-built-in = New tournaments get the built-in { $option }: **{ $value }**.
settings-channel-added = Tournaments may be announced in { $channel }; /tournament create is refused in the channels not named here.
settings-channel-removed = New tournaments are no longer announced in { $channel } (those under way there go on); they may be announced in { $left ->
        [any] any channel
       *[named] the channels named here
    }.
settings-channels-cleared = Tournaments may be announced in any channel where I can post boards.
settings-role-done = Every tournament announced here pings { $role }, and nobody else.
settings-role-none = Announcements ping nobody.
settings-role-not-mentionable = Note: { $role } cannot be mentioned by everyone, so announcements will name it without pinging. Allow anyone to @mention it (the role's settings), or give me Mention @everyone, @here and All Roles.
settings-pace-done = A combat that no person plays any more (only computer players, or seats handed to them) resolves a turn every { $seconds } { $seconds ->
        [one] second
       *[other] seconds
    } at most ({ $whose ->
        [server] this server's choice
       *[built-in] the built-in pace
    }), so its channel stays readable.
settings-language-done = This server's language is { $code } ({ $name }): the bot speaks it in this server's channels (announcements, boards, results). Each player reads the answers only they see in their own Discord language.
refusal-managed-role = { $role } belongs to a bot or an integration; choose a role that players take to hear of new tournaments.

## The game viewer on the web (issue #37)

settings-viewer-name = Game viewer on the web
settings-viewer = { $shared ->
        [yes] shared: anyone with a tournament's link may watch and replay it
       *[no] not shared: nobody outside Discord sees this server's combats (/{ $command } shares them)
    }
settings-viewer-done = { $shared ->
        [yes] Anyone with a link may now watch this server's tournaments on the web, finished ones too.{ $links ->
            [yes] {" "}Every board posted from now on, and each entry of /{ $history }, links to its page.
           *[no] {" "}Boards carry no link while the bot has no public address: its host sets PUBLIC_URL.
        }
       *[no] This server's tournaments are no longer shared on the web: their pages say so and stop updating.
    }
