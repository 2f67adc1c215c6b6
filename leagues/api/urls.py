from django.urls import path

from . import listings, views

C = "competitions/<str:competition_id>"

urlpatterns = [
    path("competitions", views.CompetitionsView.as_view(), name="competitions"),
    path(C, views.CompetitionView.as_view(), name="competition"),
    path(f"{C}/entrants", views.EntrantsView.as_view(), name="competition-entrants"),
    path(f"{C}/entrants/import", views.EntrantImportView.as_view(), name="competition-import"),
    path(f"{C}/late-entrants", views.LateJoinView.as_view(), name="competition-late-join"),
    path(f"{C}/entrants/<str:entrant_id>/accept", views.AcceptView.as_view()),
    path(f"{C}/entrants/<str:entrant_id>/decline", views.DeclineView.as_view()),
    path(f"{C}/entrants/<str:entrant_id>/withdraw", views.WithdrawView.as_view()),
    path(f"{C}/entrants/<str:entrant_id>/check-in", views.CheckInView.as_view()),
    path(f"{C}/entrants/<str:entrant_id>/substitute", views.SubstituteView.as_view()),
    path(f"{C}/leave", views.LeaveView.as_view()),
    path(f"{C}/partnerships", views.ProposalsView.as_view()),
    path(f"{C}/partnerships/<str:proposal_id>/confirm", views.ConfirmView.as_view()),
    path(f"{C}/entry-link", views.EntryLinkView.as_view(), name="competition-entry-link"),
    path(f"{C}/entry-link/revoke", views.RevokeEntryLinkView.as_view()),
    path(f"{C}/entry-link/join", views.EnterByLinkView.as_view()),
    path(f"{C}/me", views.MyPlaceView.as_view(), name="competition-my-place"),
    path(f"{C}/partnerships/<str:partnership_id>/join", views.JoinPartnerView.as_view()),
    path(f"{C}/rounds", views.RoundsView.as_view(), name="competition-rounds"),
    path(f"{C}/rounds/<int:number>/start", views.StartRoundView.as_view()),
    path(f"{C}/rounds/<int:number>/override", views.OverrideRoundView.as_view()),
    path(f"{C}/forbidden-pairs", views.ForbiddenPairsView.as_view(), name="competition-forbidden"),
    path(f"{C}/forbidden-pairs/remove", views.AllowPairView.as_view()),
    path(f"{C}/rounds/<int:number>/tables", views.RoundTablesView.as_view()),
    path(f"{C}/rounds/<int:number>/arrive", views.ArriveView.as_view()),
    path(f"{C}/rounds/<int:number>/results", views.ResultsView.as_view()),
    path(f"{C}/results/<str:result_id>/confirm", views.ConfirmResultView.as_view()),
    path(f"{C}/results/<str:result_id>/correct", views.CorrectionView.as_view()),
    path(f"{C}/stages", views.StagesView.as_view(), name="competition-stages"),
    path(f"{C}/stages/advance", views.AdvanceStageView.as_view()),
    path(f"{C}/standings", views.StandingsView.as_view(), name="competition-standings"),
    path(f"{C}/duplicate", views.DuplicateView.as_view(), name="competition-duplicate"),
    path(f"{C}/rounds/<int:number>/boards", views.RoundBoardsView.as_view()),
    path(f"{C}/rounds/<int:number>/boards/<int:board>/traveller", views.TravellerView.as_view()),
    path(f"{C}/rounds/<int:number>/boards/<int:board>/again", views.BoardAgainView.as_view()),
    path(
        f"{C}/rounds/<int:number>/boards/<int:board>/correct",
        views.BoardCorrectionView.as_view(),
    ),
    path(
        f"{C}/rounds/<int:number>/boards/<int:board>/par/<int:play>",
        views.ParPlayView.as_view(),
    ),
    path(
        f"{C}/rounds/<int:number>/boards/<int:board>/again/<uuid:table_id>",
        views.BoardAgainResultView.as_view(),
    ),
    path(f"{C}/players/<str:player>/next-match", views.NextMatchView.as_view()),
    path(f"{C}/export", views.ExportView.as_view(), name="competition-export"),
    path(f"{C}/calendar.ics", views.CompetitionCalendarView.as_view(), name="competition-calendar"),
    path("players/me/calendar.ics", views.MyCalendarView.as_view(), name="my-calendar"),
    path("players/me/calendar-feed", views.MyCalendarFeedView.as_view(), name="my-calendar-feed"),
    # The secret rides in the query string, which neither access log keeps (the web's own
    # and the sample proxy's): in the path it would be written to both.
    path("calendar.ics", views.CalendarFeedView.as_view(), name="calendar-feed"),
    path("players/me/next-matches", views.MyNextMatchesView.as_view(), name="my-next-matches"),
    path("ratings", views.RatingsView.as_view(), name="ratings"),
    path("ratings/<str:player>/history", listings.RatingHistoryView.as_view()),
    path("leagues", listings.LeaguesIndexView.as_view(), name="leagues"),
    path("leagues/<str:league_id>", views.LeagueView.as_view(), name="league"),
    path("leagues/<str:league_id>/seasons", views.SeasonsView.as_view()),
]
