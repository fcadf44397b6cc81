"""The page form that imports a project from its JSON export."""

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from apps.exports.errors import error_lines
from apps.exports.json_export import MAX_IMPORT_BYTES, DocumentError, read_document
from apps.exports.serializers import ProjectDocumentSerializer

MAX_MESSAGES = 20


class ProjectImportForm(forms.Form):
    file = forms.FileField(
        label=_("Project file (JSON)"),
        help_text=format_lazy(
            _("A JSON file downloaded from a project or scenario page, up to {megabytes} MB."),
            megabytes=MAX_IMPORT_BYTES // (1024 * 1024),
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> dict:
        """The validated document; its "project" is ready for `services.project_import`."""
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                gettext("The file is larger than %(megabytes)d MB.")
                % {"megabytes": MAX_IMPORT_BYTES // (1024 * 1024)}
            )
        try:
            document = read_document(upload.read(MAX_IMPORT_BYTES + 1))
        except DocumentError as error:
            raise forms.ValidationError(str(error)) from None
        serializer = ProjectDocumentSerializer(data=document)
        if not serializer.is_valid():
            lines = error_lines(serializer.errors)
            if len(lines) > MAX_MESSAGES:
                more = len(lines) - MAX_MESSAGES
                lines = [
                    *lines[:MAX_MESSAGES],
                    ngettext(
                        "… and %(count)d more problem.", "… and %(count)d more problems.", more
                    )
                    % {"count": more},
                ]
            raise forms.ValidationError(lines)
        return serializer.validated_data
