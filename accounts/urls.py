from django.urls import path

from accounts.views import (
    AccountDeletionView,
    AccountExportView,
    LogoutView,
    MeView,
    ObtainTokenView,
    PasswordChangeView,
    PasswordResetConfirmView,
    PasswordResetView,
    RegisterView,
)

urlpatterns = [
    path("register", RegisterView.as_view(), name="auth-register"),
    path("token", ObtainTokenView.as_view(), name="auth-token"),
    path("logout", LogoutView.as_view(), name="auth-logout"),
    path("me", MeView.as_view(), name="auth-me"),
    path("me/export", AccountExportView.as_view(), name="auth-export"),
    path("me/delete", AccountDeletionView.as_view(), name="auth-delete"),
    path("password/change", PasswordChangeView.as_view(), name="auth-password-change"),
    path("password/reset", PasswordResetView.as_view(), name="auth-password-reset"),
    path(
        "password/reset/confirm",
        PasswordResetConfirmView.as_view(),
        name="auth-password-reset-confirm",
    ),
]
